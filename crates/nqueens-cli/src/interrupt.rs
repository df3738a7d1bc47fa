//! Ctrl-C and `kill`: a stop request, not a death.
//!
//! The commands that search ([`install`] is called for them) take SIGINT and SIGTERM as a
//! request to stop: the handler only raises the flag that every engine polls
//! ([`nqueens::Limits::stop`]), the engine ends at its next poll (the counter first records and
//! syncs its finished tasks), the progress line is erased, and the command says what was kept
//! and exits 130, as a shell does for a process killed by SIGINT. The handler is installed
//! with `SA_RESETHAND`, so a second Ctrl-C kills the process at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// The stop flag the handler raises, and when the command started.
static STOP: OnceLock<(Arc<AtomicBool>, Instant)> = OnceLock::new();

/// The exit code of an interrupted command (128 + SIGINT).
pub const EXIT_CODE: u8 = 130;

/// Takes SIGINT and SIGTERM as stop requests for the rest of the process.
pub fn install() {
    if STOP
        .set((Arc::new(AtomicBool::new(false)), Instant::now()))
        .is_err()
    {
        return;
    }
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: `sigaction` is given a zeroed struct with a handler that only performs an
        // atomic store (async-signal-safe); the struct lives for the call.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(unix)]
extern "C" fn on_signal(_: libc::c_int) {
    if let Some((flag, _)) = STOP.get() {
        flag.store(true, Ordering::SeqCst);
    }
}

/// The flag engines should poll, once [`install`] was called.
pub fn stop_flag() -> Option<Arc<AtomicBool>> {
    STOP.get().map(|(flag, _)| Arc::clone(flag))
}

/// Whether a stop was requested.
pub fn requested() -> bool {
    STOP.get()
        .is_some_and(|(flag, _)| flag.load(Ordering::SeqCst))
}

/// Seconds since [`install`].
pub fn elapsed_seconds() -> f64 {
    STOP.get()
        .map_or(0.0, |(_, start)| start.elapsed().as_secs_f64())
}

/// An interruption the command has already described: printed as is, exit 130.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Interrupted(pub String);
