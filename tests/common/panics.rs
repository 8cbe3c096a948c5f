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
