//! Catching a panic and reading its message.

/// Runs `op`, expecting a panic, and returns its message.
pub fn panic_message(op: impl FnOnce()) -> String {
    let payload =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(op)).expect_err("expected a panic");
    message_of(&*payload)
}

/// The text of a panic payload (`&str` or `String`), or a placeholder.
pub fn message_of(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic>".to_string()
    }
}

/// A value whose drop panics (with the message `"dropped"`) after counting the drop on
/// `drops`: a panic payload or a captured value that misbehaves when dropped.
pub struct PanicsOnDrop(pub &'static std::sync::atomic::AtomicUsize);

impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        panic!("dropped");
    }
}

/// Runs `run(board, bad)`, which must panic with a message containing "boom", inside a
/// pool of each size, for `bad` the first, a middle and the last of `len` calls; checks
/// the message, and that every item made on the board (of `ids` ids) was dropped
/// exactly once.
pub fn panics_balanced(len: usize, ids: usize, run: impl Fn(&super::drops::Board, usize) + Sync) {
    for pool in super::cases::pools() {
        for bad in [0, len / 2 + 1, len - 1] {
            let board = super::drops::Board::new(ids);
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pool.install(|| run(&board, bad))
            }));
            let payload = outcome.expect_err("the panic must reach the caller");
            let message = message_of(&*payload);
            assert!(message.contains("boom"), "unexpected panic: {message}");
            board.assert_all_dropped_once();
        }
    }
}
