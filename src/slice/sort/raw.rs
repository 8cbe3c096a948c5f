//! A raw pointer that may cross threads, for the merge sort's ping-pong
//! between the slice and its buffer.

/// A pointer into the slice or its buffer. Sending it to another thread moves
/// the right to touch the elements it addresses, which the sort hands out in
/// disjoint ranges, so this is sound for `T: Send`.
pub(super) struct SendPtr<T>(pub(super) *mut T);

impl<T> Clone for SendPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SendPtr<T> {}

// SAFETY: the pointer is only a position; the sort gives each task its own
// disjoint range of elements, and moving `T`s between threads needs `T: Send`.
unsafe impl<T: Send> Send for SendPtr<T> {}

impl<T> SendPtr<T> {
    /// The pointer `count` elements further.
    ///
    /// # Safety
    /// The result must stay within (or one past) the same allocation.
    #[inline(always)]
    pub(super) unsafe fn add(self, count: usize) -> Self {
        // SAFETY: the caller keeps the result inside the allocation.
        SendPtr(unsafe { self.0.add(count) })
    }
}
