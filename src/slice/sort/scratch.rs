//! The sorts' scratch buffers: room for `len` elements that the buffer never
//! owns (every element in it is a bitwise copy of one the slice still owns, or
//! on its way back there).
//!
//! Why not always a `Vec`: a large buffer is fresh memory, and on Linux each
//! 4 KiB page of it costs a page fault on first touch, which for a large
//! buffer can cost the sort more than its merges do. A buffer of
//! [`HUGE_FROM`] bytes or more is therefore mapped by the sort itself and
//! marked for transparent huge pages (`madvise(MADV_HUGEPAGE)`), one fault per
//! 2 MiB instead of one per 4 KiB (measurements: `docs/benchmarks.md`,
//! section "Why the sorts' constants are what they are"). The mapping is the
//! sort's own, so the advice never reaches memory of the global allocator; it
//! is unmapped when the sort ends. Where the kernel gives no huge pages (they
//! are switched off, or none is free) the mapping behaves as ordinary memory.
//! Elsewhere, and where the mapping fails, the buffer is a `Vec`'s.

use std::marker::PhantomData;

/// From this many bytes a buffer is mapped with huge pages (Linux). Smaller
/// ones come from the global allocator, which in a loop of sorts hands the
/// same pages back without new faults, where a fresh mapping would fault anew
/// and, even with huge pages, cost more (measurements: `docs/benchmarks.md`,
/// section "Why the sorts' constants are what they are"). glibc's allocator
/// maps blocks of 32 MiB or more afresh for every request, so from there a
/// mapping of the sort's own costs no reuse.
const HUGE_FROM: usize = 32 << 20;

/// Whether a buffer of `len` elements of `T` is mapped for its sort alone,
/// so its memory is fresh each time; smaller ones are the allocator's, which
/// hands the same memory back to the next sort. Only on Linux: elsewhere
/// every buffer is the allocator's.
pub(super) fn is_mapped<T>(len: usize) -> bool {
    cfg!(target_os = "linux") && len.saturating_mul(size_of::<T>()) >= HUGE_FROM
}

/// A scratch buffer with room for `len` elements of `T`, owning none of them.
pub(super) struct Scratch<T> {
    ptr: *mut T,
    /// The buffer's memory: a `Vec` that stays empty, or a mapping of its own.
    backing: Backing<T>,
}

enum Backing<T> {
    Heap(#[allow(dead_code)] Vec<T>),
    #[cfg(target_os = "linux")]
    Mapped {
        base: *mut libc::c_void,
        bytes: usize,
        _of: PhantomData<T>,
    },
}

impl<T> Scratch<T> {
    /// Room for `len` elements.
    ///
    /// # Panics
    /// As `Vec::with_capacity` when the room cannot be had.
    pub(super) fn new(len: usize) -> Self {
        #[cfg(target_os = "linux")]
        if let Some(scratch) = Self::mapped(len) {
            return scratch;
        }
        let mut vec = Vec::with_capacity(len);
        Scratch {
            ptr: vec.as_mut_ptr(),
            backing: Backing::Heap(vec),
        }
    }

    /// A mapping of its own with huge pages advised, when `len` elements are
    /// [`HUGE_FROM`] bytes or more and the kernel grants it.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize) -> Option<Self> {
        const HUGE_PAGE: usize = 2 << 20;
        let bytes = len.checked_mul(size_of::<T>())?;
        if !is_mapped::<T>(len) || align_of::<T>() > HUGE_PAGE {
            return None;
        }
        // One huge page more than asked, so that the buffer can start on a
        // huge page's boundary and every 2 MiB of it can be one page.
        let map_bytes = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: an anonymous private mapping at an address of the kernel's
        // choosing touches no existing memory; failure is `MAP_FAILED`.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        // SAFETY: `base..base + map_bytes` is this mapping, just made; the
        // advice only changes how its pages are backed (an error leaves them
        // as ordinary pages, which is still correct).
        unsafe { libc::madvise(base, map_bytes, libc::MADV_HUGEPAGE) };
        let offset = (base as usize).next_multiple_of(HUGE_PAGE) - base as usize;
        Some(Scratch {
            // SAFETY: `offset < HUGE_PAGE`, so `offset + bytes <= map_bytes`:
            // the buffer lies in the mapping, aligned for `T` (huge page
            // alignment is a multiple of `T`'s, checked above).
            ptr: unsafe { base.cast::<u8>().add(offset).cast::<T>() },
            backing: Backing::Mapped {
                base,
                bytes: map_bytes,
                _of: PhantomData,
            },
        })
    }

    /// The buffer's first place.
    pub(super) fn as_mut_ptr(&mut self) -> *mut T {
        self.ptr
    }
}

impl<T> Drop for Scratch<T> {
    fn drop(&mut self) {
        match self.backing {
            Backing::Heap(_) => {}
            #[cfg(target_os = "linux")]
            Backing::Mapped { base, bytes, .. } => {
                // SAFETY: the mapping is this buffer's own, and the buffer
                // never owns elements, so nothing needs dropping before it goes.
                unsafe { libc::munmap(base, bytes) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every place of a buffer can be written and read back, at the
    /// alignment of its type, small (the allocator's) or large (a mapping).
    fn round_trip<T: Copy + PartialEq + std::fmt::Debug>(len: usize, make: impl Fn(usize) -> T) {
        let mut scratch = Scratch::<T>::new(len);
        let ptr = scratch.as_mut_ptr();
        assert_eq!(ptr as usize % align_of::<T>(), 0);
        for i in (0..len).step_by(len / 4096 + 1).chain(len.checked_sub(1)) {
            // SAFETY: `i < len`, the buffer's room.
            unsafe { ptr.add(i).write(make(i)) };
        }
        for i in (0..len).step_by(len / 4096 + 1).chain(len.checked_sub(1)) {
            // SAFETY: written just above.
            assert_eq!(unsafe { ptr.add(i).read() }, make(i));
        }
    }

    #[test]
    fn small_and_large_buffers_hold_what_is_written() {
        round_trip(0, |i| i as u64);
        round_trip(1000, |i| i as u64);
        round_trip((32 << 20) / 8 + 1, |i| i as u64);
        round_trip((40 << 20) / 64, |i| [i as u64; 8]);
        round_trip(3, |_| ());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn buffers_of_32_mib_and_more_are_mapped_on_huge_page_boundaries() {
        let mut small = Scratch::<u64>::new(1 << 20);
        assert!(matches!(small.backing, Backing::Heap(_)));
        let mut large = Scratch::<u64>::new(HUGE_FROM / 8);
        assert!(matches!(large.backing, Backing::Mapped { .. }));
        assert_eq!(large.as_mut_ptr() as usize % (2 << 20), 0);
        let _ = small.as_mut_ptr();
    }
}
