//! The head start: a caller outside the pool begins the work itself.
//!
//! Reaching the pool from a plain thread costs a wake-up of a sleeping worker and a
//! wake-up back, tens of microseconds: for a small `par_iter` that is many times the
//! work itself. So the calling thread folds the first items itself, in runs that
//! double in length, and hands what is left to the pool only once it has worked for
//! `HEAD_START`. A job shorter than that runs at sequential speed; a longer one loses
//! at most about twice `HEAD_START` of parallelism (a run never lasts longer than all
//! the runs before it, plus one item).

use std::time::{Duration, Instant};

use super::{Consumer, Folder, Producer, Reducer};

/// How long the caller works alone before it calls in the pool: about one wake-up of a worker.
const HEAD_START: Duration = Duration::from_micros(20);

/// Folds `producer` into `consumer`, first in doubling runs on the calling thread, then
/// (if time is up) the rest through `in_pool`. Runs respect the producer's length
/// limits, and their results are reduced right to left, exactly as if the consumer had
/// been split recursively at the same points.
pub(super) fn run<P, C>(
    len: usize,
    producer: P,
    consumer: C,
    in_pool: impl FnOnce(usize, P, C) -> C::Result,
) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    let start = Instant::now();
    let (min, max) = (producer.min_len().max(1), producer.max_len().max(1));
    let mut folded: Vec<(C::Result, C::Reducer)> = Vec::new();
    let (mut producer, mut consumer, mut left, mut run) = (producer, consumer, len, min);
    let rest = loop {
        if consumer.full() {
            break consumer.into_folder().complete();
        }
        if !folded.is_empty() && start.elapsed() >= HEAD_START {
            break in_pool(left, producer, consumer);
        }
        if left <= run {
            break producer.fold_with(consumer.into_folder()).complete();
        }
        let (head, tail) = producer.split_at(run);
        let (head_consumer, tail_consumer, reducer) = consumer.split_at(run);
        folded.push((
            head.fold_with(head_consumer.into_folder()).complete(),
            reducer,
        ));
        (producer, consumer, left) = (tail, tail_consumer, left - run);
        run = run.saturating_mul(2).clamp(min, max.max(min));
    };
    folded
        .into_iter()
        .rev()
        .fold(rest, |right, (left, reducer)| reducer.reduce(left, right))
}
