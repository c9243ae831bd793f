//! The playground page's WebAssembly module: tensh's page session (`tensh::page`) behind
//! four plain exports. The page writes a request (JSON, UTF-8) into the buffer
//! `tensh_buffer` gives, calls `tensh_call` with its length, and reads the answer's
//! `tensh_answer_len` bytes at `tensh_answer`. (`wasm-bindgen`'s tool still processes the
//! module, `web/build`: the clocks and some crates reach the browser through it.)

use std::cell::RefCell;

use tensh::page::Page;

thread_local! {
    static PAGE: RefCell<Option<Page>> = const { RefCell::new(None) };
    static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for the next request; its address.
#[unsafe(no_mangle)]
pub extern "C" fn tensh_buffer(len: usize) -> *mut u8 {
    REQUEST.with(|r| {
        let mut r = r.borrow_mut();
        r.clear();
        r.resize(len, 0);
        r.as_mut_ptr()
    })
}

/// Answers the request in the first `len` bytes of the buffer; the answer's length.
#[unsafe(no_mangle)]
pub extern "C" fn tensh_call(len: usize) -> usize {
    let request = REQUEST.with(|r| {
        let r = r.borrow();
        String::from_utf8_lossy(&r[..len.min(r.len())]).into_owned()
    });
    let answer = PAGE.with(|p| {
        let mut p = p.borrow_mut();
        p.get_or_insert_with(Page::new).handle(&request)
    });
    ANSWER.with(|a| {
        *a.borrow_mut() = answer.into_bytes();
        a.borrow().len()
    })
}

/// The address of the last answer.
#[unsafe(no_mangle)]
pub extern "C" fn tensh_answer() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}

/// The length of the last answer.
#[unsafe(no_mangle)]
pub extern "C" fn tensh_answer_len() -> usize {
    ANSWER.with(|a| a.borrow().len())
}
