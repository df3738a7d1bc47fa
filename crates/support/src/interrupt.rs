//! Ctrl-C and `kill`: a stop request, not a death (feature `signals`, for the front ends'
//! binaries: a library never installs signal handlers).
//!
//! A program that searches calls [`install`]; from then on SIGINT and SIGTERM are a request
//! to stop: the handler only raises the flag that every engine polls ([`crate::Limits::stop`]),
//! the engine ends at its next poll (a counter first records and syncs its finished tasks), and
//! the program says what was kept and exits [`EXIT_CODE`], as a shell does for a process
//! killed by SIGINT. A second signal more than [`SAME_INTERRUPT_NANOS`] (a second) after the
//! first kills the process at once; one within that window is taken as part of the same
//! interrupt (GNU `timeout -s INT` signals the child and then its process group, so the child
//! gets two SIGINTs microseconds apart; `mpirun` sends every rank SIGTERM on Ctrl-C).
//!
//! Costs nothing until a signal comes: the engines poll the flag with their other limits.
//!
//! A process that writes a temporary file (an output renamed onto its target only on success)
//! names it with [`remove_if_killed`]: the second signal deletes it before the process dies, so
//! even that exit leaves nothing behind.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// The stop flag the handler raises, and when the command started.
static STOP: OnceLock<(Arc<AtomicBool>, Instant)> = OnceLock::new();

/// The exit code of an interrupted command (128 + SIGINT).
pub const EXIT_CODE: u8 = 130;

/// Signals this close to the first are the same interrupt.
pub const SAME_INTERRUPT_NANOS: u64 = 1_000_000_000;

/// When the first signal came (`CLOCK_MONOTONIC` nanoseconds, at least 1), 0 before.
static FIRST_SIGNAL: AtomicU64 = AtomicU64::new(0);

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
        // SAFETY: `sigaction` is given a zeroed struct with a handler that only reads the
        // clock, performs atomic loads and stores, and resets and raises a signal (all
        // async-signal-safe); the struct lives for the call.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime is async-signal-safe and writes only `now`.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    let now = (now.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(now.tv_nsec as u64)
        .max(1);
    match FIRST_SIGNAL.compare_exchange(0, now, Ordering::SeqCst, Ordering::SeqCst) {
        Ok(_) => {
            if let Some((flag, _)) = STOP.get() {
                flag.store(true, Ordering::SeqCst);
            }
        }
        Err(first) if now.saturating_sub(first) <= SAME_INTERRUPT_NANOS => {}
        Err(_) => {
            // A second Ctrl-C: die of it at once, as without a handler, but first delete the
            // temporary files the process named.
            for slot in &DOOMED {
                let path = slot.load(Ordering::SeqCst);
                if !path.is_null() {
                    // SAFETY: a NUL-terminated string leaked by `remove_if_killed`, never
                    // freed; unlink is async-signal-safe.
                    unsafe { libc::unlink(path) };
                }
            }
            // SAFETY: signal and raise are async-signal-safe.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
        }
    }
}

/// The files [`remove_if_killed`] named: NUL-terminated paths, leaked so that the handler
/// never reads freed memory. Eight is more than any command writes.
#[cfg(unix)]
static DOOMED: [std::sync::atomic::AtomicPtr<libc::c_char>; 8] =
    [const { std::sync::atomic::AtomicPtr::new(std::ptr::null_mut()) }; 8];

/// Deletes `path` if a second signal kills the process (see the [module documentation](self)):
/// for a temporary file that must not outlive the process. Once the file is renamed or deleted
/// the name is harmless (nothing else creates a file of that name). Does nothing beyond eight
/// files, or for a path with a NUL byte.
pub fn remove_if_killed(path: &std::path::Path) {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(name) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return;
        };
        let name = name.into_raw();
        let taken = DOOMED.iter().any(|slot| {
            slot.compare_exchange(
                std::ptr::null_mut(),
                name,
                Ordering::SeqCst,
                Ordering::SeqCst,
            )
            .is_ok()
        });
        if !taken {
            // SAFETY: `name` came from `CString::into_raw` just above and was not stored.
            drop(unsafe { std::ffi::CString::from_raw(name) });
        }
    }
    #[cfg(not(unix))]
    let _ = path;
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
