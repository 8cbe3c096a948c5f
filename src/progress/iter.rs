//! `ProgressBarIter`: a parallel iterator that moves a bar by one for every item that
//! goes through it, whichever worker handles the item.

use std::borrow::Cow;

use indicatif::{ProgressBar, ProgressFinish, ProgressStyle};

use super::plumbing::{ProgressConsumer, ProgressProducer};
use crate::iter::plumbing::{Consumer, Producer, ProducerCallback, UnindexedConsumer};
use crate::iter::{IndexedParallelIterator, ParallelIterator};

/// A parallel iterator that counts its items into a progress bar (made by
/// [`ParallelProgressIterator`](super::ParallelProgressIterator)).
///
/// When the parallel call that consumes it returns, the bar's position has gone up by
/// exactly the number of items that went through, however the work was split and
/// stolen. The builder methods set the bar's look, as indicatif's own
/// `ProgressBarIter` does.
///
/// ```
/// use prorata::prelude::*;
/// use prorata::progress::{ParallelProgressIterator, ProgressBar};
///
/// let bar = ProgressBar::hidden();
/// let it = (0..1000u32).into_par_iter().progress_with(bar.clone());
/// assert_eq!(it.len(), 1000);
/// assert_eq!(it.map(|x| x % 7).sum::<u32>(), (0..1000).map(|x| x % 7).sum());
/// assert_eq!(bar.position(), 1000);
/// ```
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug)]
pub struct ProgressBarIter<I> {
    it: I,
    /// The bar the items are counted into.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::ParallelProgressIterator;
    ///
    /// let it = (0..10).into_par_iter().progress_count(10);
    /// assert_eq!(it.progress.length(), Some(10));
    /// ```
    pub progress: ProgressBar,
}

impl<I> ProgressBarIter<I> {
    pub(super) fn new(it: I, progress: ProgressBar) -> Self {
        ProgressBarIter { it, progress }
    }

    /// Sets the bar's style (see [`ProgressBar::with_style`]).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::{ParallelProgressIterator, ProgressStyle};
    ///
    /// let style = ProgressStyle::with_template("{bar:40} {pos}/{len}").unwrap();
    /// let n = (0..100).into_par_iter().progress().with_style(style).count();
    /// assert_eq!(n, 100);
    /// ```
    pub fn with_style(mut self, style: ProgressStyle) -> Self {
        self.progress = self.progress.with_style(style);
        self
    }

    /// Sets the bar's prefix (see [`ProgressBar::with_prefix`]).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::ParallelProgressIterator;
    ///
    /// let it = (0..100).into_par_iter().progress().with_prefix("squares");
    /// assert_eq!(it.progress.prefix(), "squares");
    /// ```
    pub fn with_prefix(mut self, prefix: impl Into<Cow<'static, str>>) -> Self {
        self.progress = self.progress.with_prefix(prefix);
        self
    }

    /// Sets the bar's message (see [`ProgressBar::with_message`]).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::ParallelProgressIterator;
    ///
    /// let it = (0..100).into_par_iter().progress().with_message("hashing");
    /// assert_eq!(it.progress.message(), "hashing");
    /// ```
    pub fn with_message(mut self, message: impl Into<Cow<'static, str>>) -> Self {
        self.progress = self.progress.with_message(message);
        self
    }

    /// Sets the bar's starting position (see [`ProgressBar::with_position`]); the items
    /// are counted from there.
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::ParallelProgressIterator;
    ///
    /// let it = (0..100).into_par_iter().progress_count(150).with_position(50);
    /// let bar = it.progress.clone();
    /// it.for_each(|_| ());
    /// assert_eq!(bar.position(), 150);
    /// ```
    pub fn with_position(mut self, position: u64) -> Self {
        self.progress = self.progress.with_position(position);
        self
    }

    /// Sets what the bar shows once it is dropped (see [`ProgressBar::with_finish`]).
    ///
    /// ```
    /// use prorata::prelude::*;
    /// use prorata::progress::{ParallelProgressIterator, ProgressFinish};
    ///
    /// let n = (0..100).into_par_iter().progress().with_finish(ProgressFinish::AndClear).count();
    /// assert_eq!(n, 100);
    /// ```
    pub fn with_finish(mut self, finish: ProgressFinish) -> Self {
        self.progress = self.progress.with_finish(finish);
        self
    }
}

impl<I: ParallelIterator> ParallelIterator for ProgressBarIter<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let consumer = ProgressConsumer::new(consumer, self.progress);
        self.it.drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        self.it.opt_len()
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for ProgressBarIter<I> {
    fn len(&self) -> usize {
        self.it.len()
    }

    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        let consumer = ProgressConsumer::new(consumer, self.progress);
        self.it.drive(consumer)
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        let bar = self.progress;
        self.it.with_producer(Callback { callback, bar })
    }
}

/// Wraps the inner iterator's producer before handing it to the outer callback.
struct Callback<CB> {
    callback: CB,
    bar: ProgressBar,
}

impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB> {
    type Output = CB::Output;

    fn callback<P: Producer<Item = T>>(self, producer: P) -> CB::Output {
        let producer = ProgressProducer::new(producer, self.bar);
        self.callback.callback(producer)
    }
}
