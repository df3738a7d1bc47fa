//! The project's engines for the browser (the web playground in `web/`).
//!
//! The page talks to this crate through a handful of plain exported functions and the module's
//! linear memory; no wasm-bindgen, so building needs nothing but `rustup target add
//! wasm32-unknown-unknown` and cargo, and the JavaScript glue (`web/src/engine.js`) is a page of
//! hand-written code. Every request is one JSON object, every answer another:
//!
//! 1. the page asks for a buffer with [`nq_alloc`] and writes the request's UTF-8 bytes there;
//! 2. [`nq_call`] reads and frees the request, runs it ([`api::handle`]) and keeps the answer;
//! 3. the page reads the answer from [`nq_out_ptr`] / [`nq_out_len`].
//!
//! The answer always is JSON: a result, or `{"error": "one line"}` for bad input, so nothing a
//! user types can panic the module. All the work happens in [`api::handle`], a plain Rust function
//! the host's test suite runs like any other; the exported functions only move bytes.
//!
//! Threads do not exist in `wasm32-unknown-unknown`: every method runs with one thread, and
//! time limits are replaced by node budgets (the standard clock panics there; the engines read
//! `nqueens_support::clock`, which stands still in the browser).

pub mod api;

use std::cell::RefCell;

thread_local! {
    /// The last answer, kept until the next call so the page can copy it out.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes the page writes a request into (owned by the caller until
/// [`nq_call`] takes it back).
#[unsafe(no_mangle)]
pub extern "C" fn nq_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Runs the request of `len` bytes at `ptr` (from [`nq_alloc`] with the same `len`, which this
/// call frees) and returns the answer's length; the answer is at [`nq_out_ptr`].
///
/// # Safety
///
/// `ptr` must come from `nq_alloc(len)` and hold `len` initialised bytes; it is freed here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn nq_call(ptr: *mut u8, len: usize) -> usize {
    // SAFETY: the caller promises `ptr` came from `nq_alloc(len)` (capacity `len.max(1)`) and
    // that `len` bytes were written.
    let request = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = match std::str::from_utf8(&request) {
        Ok(text) => api::handle(text),
        Err(_) => api::error_json("the request is not UTF-8 text"),
    };
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        *out = answer.into_bytes();
        out.len()
    })
}

/// Where the last answer starts.
#[unsafe(no_mangle)]
pub extern "C" fn nq_out_ptr() -> *const u8 {
    OUT.with(|out| out.borrow().as_ptr())
}

/// The last answer's length in bytes.
#[unsafe(no_mangle)]
pub extern "C" fn nq_out_len() -> usize {
    OUT.with(|out| out.borrow().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(request: &str) -> String {
        let ptr = nq_alloc(request.len());
        // SAFETY: `ptr` has room for `request.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(request.as_ptr(), ptr, request.len()) };
        // SAFETY: as the contract asks.
        let len = unsafe { nq_call(ptr, request.len()) };
        assert_eq!(len, nq_out_len());
        // SAFETY: the answer buffer holds `len` bytes until the next call.
        let bytes = unsafe { std::slice::from_raw_parts(nq_out_ptr(), len) };
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn the_exported_functions_carry_a_request_and_its_answer() {
        let answer = call(r#"{"op":"count","n":6,"fix":[]}"#);
        let value: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(value["total"], 4);
        let answer = call("");
        assert!(answer.contains("error"), "{answer}");
    }
}
