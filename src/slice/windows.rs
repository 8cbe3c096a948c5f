//! `par_windows` and `par_array_windows`: overlapping windows, indexed.

use crate::iter::plumbing::*;
use crate::iter::*;

/// Number of windows of `size` elements in a slice of `len` elements.
fn window_count(len: usize, size: usize) -> usize {
    (len + 1).saturating_sub(size)
}

/// Parallel iterator over overlapping windows of a slice, made by
/// [`par_windows`](super::ParallelSlice::par_windows).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::slice::Windows<'_, i32> = [1, 2, 3].par_windows(2);
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct Windows<'data, T> {
    window_size: usize,
    slice: &'data [T],
}

impl<'data, T> Windows<'data, T> {
    /// A size of 0 panics only once the iterator is used, as in Rayon.
    pub(super) fn new(slice: &'data [T], window_size: usize) -> Self {
        Windows { window_size, slice }
    }
}

impl<T> Clone for Windows<'_, T> {
    fn clone(&self) -> Self {
        Windows { ..*self }
    }
}

impl<'data, T: Sync> ParallelIterator for Windows<'data, T> {
    type Item = &'data [T];

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<T: Sync> IndexedParallelIterator for Windows<'_, T> {
    fn len(&self) -> usize {
        // Rayon's check, so the message is the same.
        assert!(self.window_size >= 1);
        window_count(self.slice.len(), self.window_size)
    }

    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(WindowsProducer {
            window_size: self.window_size,
            slice: self.slice,
        })
    }
}

/// Parallel iterator over overlapping windows of `N` elements, as arrays, made by
/// [`par_array_windows`](super::ParallelSlice::par_array_windows).
///
/// ```
/// use prorata::prelude::*;
/// let it: prorata::slice::ArrayWindows<'_, i32, 2> = [1, 2, 3].par_array_windows();
/// assert_eq!(it.len(), 2);
/// ```
#[derive(Debug)]
#[must_use = "iterators are lazy and do nothing unless consumed"]
pub struct ArrayWindows<'data, T: Sync, const N: usize> {
    windows: Windows<'data, T>,
}

impl<'data, T: Sync, const N: usize> ArrayWindows<'data, T, N> {
    pub(super) fn new(slice: &'data [T]) -> Self {
        ArrayWindows {
            windows: Windows::new(slice, N),
        }
    }
}

impl<T: Sync, const N: usize> Clone for ArrayWindows<'_, T, N> {
    fn clone(&self) -> Self {
        ArrayWindows {
            windows: self.windows.clone(),
        }
    }
}

impl<'data, T: Sync, const N: usize> ParallelIterator for ArrayWindows<'data, T, N> {
    type Item = &'data [T; N];

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<T: Sync, const N: usize> IndexedParallelIterator for ArrayWindows<'_, T, N> {
    fn len(&self) -> usize {
        self.windows.len()
    }

    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        self.windows.map(as_array::<T, N>).with_producer(callback)
    }
}

/// Views a window of exactly `N` elements as an array.
fn as_array<T, const N: usize>(window: &[T]) -> &[T; N] {
    window
        .try_into()
        .expect("a window holds exactly N elements")
}

/// Produces the windows of a slice; indices count windows.
struct WindowsProducer<'data, T> {
    window_size: usize,
    slice: &'data [T],
}

impl<'data, T: Sync> Producer for WindowsProducer<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::Windows<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.windows(self.window_size)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        // The left piece keeps the `window_size - 1` elements its last window shares
        // with the right piece's first.
        let left_end = self
            .slice
            .len()
            .min(index.saturating_add(self.window_size - 1));
        let piece = |slice| WindowsProducer {
            window_size: self.window_size,
            slice,
        };
        (piece(&self.slice[..left_end]), piece(&self.slice[index..]))
    }
}
