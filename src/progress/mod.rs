//! Progress bars on parallel iterators (cargo feature `progress`), with
//! [indicatif](https://docs.rs/indicatif).
//!
//! indicatif's own `ParallelProgressIterator` works only with Rayon's traits; this one
//! has the same names and shapes for prorata's: bring the trait into scope and call
//! `.progress()`, `.progress_count(n)` or `.progress_with(bar)` on any parallel
//! iterator. The bar ends at the item count however the work was split and stolen.
//!
//! Each worker counts the items of the piece it folds in a plain local and hands its
//! count to the bar in batches (at once on slow items, about once a millisecond on fast
//! ones), so workers never contend on the bar: a bar followed by `map`, `filter`,
//! `sum`, `collect`, ... costs nothing measurable even on items of a nanosecond. Placed
//! before adaptors that read the pieces item by item (`zip`, `enumerate`, `chunks`,
//! ...), it costs about a nanosecond per item; indicatif's own Rayon support, which
//! moves the shared bar once per item, costs about a hundred times that.
//!
//! ```
//! use prorata::prelude::*;
//! use prorata::progress::ParallelProgressIterator;
//!
//! let squares: Vec<u64> = (0..10_000u32)
//!     .into_par_iter()
//!     .progress()
//!     .map(|x| u64::from(x).pow(2))
//!     .collect();
//! assert_eq!(squares[9999], 9999 * 9999);
//! ```
//!
//! Without the feature this module, and indicatif, are not compiled at all.

mod iter;
mod plumbing;
mod tally;

pub use indicatif::{MultiProgress, ProgressBar, ProgressFinish, ProgressStyle};
pub use iter::ProgressBarIter;

use crate::iter::{IndexedParallelIterator, ParallelIterator};

/// Adds a progress bar to any parallel iterator, as indicatif's trait of the same name
/// does for Rayon's.
///
/// ```
/// use prorata::prelude::*;
/// use prorata::progress::{ParallelProgressIterator, ProgressBar};
///
/// let words = vec!["alpha", "beta", "gamma"];
/// let bar = ProgressBar::hidden();
/// let total: usize = words.par_iter().progress_with(bar.clone()).map(|w| w.len()).sum();
/// assert_eq!((total, bar.position()), (14, 3));
/// ```
pub trait ParallelProgressIterator: ParallelIterator {
    /// Counts the items into `progress`, a bar the caller made (and may keep a clone of,
    /// to read or finish it afterwards).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::{ParallelProgressIterator, ProgressBar};
    ///
    /// let bar = ProgressBar::hidden();
    /// let evens = (0..100).into_par_iter().progress_with(bar.clone()).filter(|x| x % 2 == 0);
    /// assert_eq!(evens.count(), 50);
    /// assert_eq!(bar.position(), 100); // every item went through the bar
    /// ```
    fn progress_with(self, progress: ProgressBar) -> ProgressBarIter<Self> {
        ProgressBarIter::new(self, progress)
    }

    /// Counts the items into a new bar of length `len`: for iterators that do not know
    /// their length (after `filter`, `flat_map`, `par_bridge`, ...).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::ParallelProgressIterator;
    ///
    /// let odd = (0..100).into_par_iter().filter(|x| x % 2 == 1).progress_count(50);
    /// assert_eq!(odd.sum::<i32>(), 2500);
    /// ```
    fn progress_count(self, len: u64) -> ProgressBarIter<Self> {
        self.progress_with(ProgressBar::new(len))
    }

    /// Counts the items into a new bar whose length is the iterator's.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::ParallelProgressIterator;
    ///
    /// let mut v = vec![1u32; 1000];
    /// v.par_iter_mut().progress().for_each(|x| *x += 1);
    /// assert!(v.iter().all(|&x| x == 2));
    /// ```
    fn progress(self) -> ProgressBarIter<Self>
    where
        Self: IndexedParallelIterator,
    {
        let len = self.len();
        self.progress_count(len_u64(len))
    }

    /// Counts the items into a new bar of the iterator's length, in `style`.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::{ParallelProgressIterator, ProgressStyle};
    ///
    /// let style = ProgressStyle::with_template("[{elapsed}] {wide_bar} {pos}/{len}").unwrap();
    /// let sum: u32 = (1..101u32).into_par_iter().progress_with_style(style).sum();
    /// assert_eq!(sum, 5050);
    /// ```
    fn progress_with_style(self, style: ProgressStyle) -> ProgressBarIter<Self>
    where
        Self: IndexedParallelIterator,
    {
        let len = self.len();
        self.progress_with(ProgressBar::new(len_u64(len)).with_style(style))
    }
}

impl<I: ParallelIterator> ParallelProgressIterator for I {}

/// A length as a bar length (lossless: `usize` has at most 64 bits on every target Rust
/// supports).
fn len_u64(len: usize) -> u64 {
    u64::try_from(len).expect("a usize fits in a u64")
}
