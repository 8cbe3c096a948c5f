//! The unstable parallel quicksort, in place.
//!
//! Each level picks the median of a sample as pivot, partitions around it and
//! sorts the two sides with `join`; pieces small enough for a fair share of a
//! thread's work go to the sequential quicksort. Many equal elements are
//! handled as in pdqsort: the right side remembers its pivot (its "ancestor",
//! a lower bound of all its elements); when a new pivot is not greater than
//! the ancestor, all elements equal to it are put in front in one pass and
//! dropped from the recursion. A piece whose sample looks sorted or reversed
//! first tries to finish by insertion (see [`super::nearly_sorted`]).
//!
//! While a piece has more than one thread to itself (the top level on two
//! threads), it is partitioned by all of them at once ([`par_partition`]);
//! below that, each piece is partitioned by the one task that owns it and its
//! pivot (passed as `&mut T`: `ParallelSliceMut` only asks `T: Send`, so a
//! pivot is never read by two threads at once).
//!
//! Elements only move by swaps made after the comparator answered, so a panic
//! or an inconsistent comparator leaves a permutation of the input. The number
//! of parallel levels is bounded, so bad pivots cannot make it quadratic.

use std::cmp::Ordering;

use super::nearly_sorted::{Finish, try_finish};
use super::par_partition::{MAX_BLOCKS, MIN_BLOCK, mend_seam, par_partition};
use super::partition::{partition, partition_around};
use super::pivot::median_of_sample;
use super::runs::par_reverse;
use super::seq_quicksort::seq_quicksort;
use super::{MIN_LEAF, is_less};

/// Sorts `v` (longer than the sequential cutoff) in parallel, unstably.
pub(super) fn par_quicksort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let threads = crate::current_num_threads();
    // Leaves of about 1/(4 threads) of the input: enough pieces for stealing
    // to balance, while a side up to a third bigger than its half still stops.
    let leaf = (v.len() / (3 * threads)).max(MIN_LEAF);
    let max_depth = 2 * (usize::BITS - threads.leading_zeros()) + 6;
    let budget = Budget {
        leaf,
        depth: max_depth,
        threads,
    };
    recurse(v, compare, None, budget);
}

/// What a piece of the recursion may still spend.
#[derive(Clone, Copy)]
struct Budget {
    /// Pieces this long or shorter go to the sequential quicksort on this thread.
    leaf: usize,
    /// Levels left before a piece goes to the sequential quicksort whatever its length.
    depth: u32,
    /// Threads this piece has to itself, about.
    threads: usize,
}

impl Budget {
    /// The budgets of the two halves of a piece.
    fn halves(self) -> (Budget, Budget) {
        let child = |threads| Budget {
            depth: self.depth - 1,
            threads,
            ..self
        };
        (
            child(self.threads / 2),
            child(self.threads - self.threads / 2),
        )
    }
}

/// Sorts `v`, all of whose elements are not less than `ancestor` (if any).
fn recurse<T, F>(v: &mut [T], compare: &F, ancestor: Option<&mut T>, budget: Budget)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if v.len() <= budget.leaf || budget.depth == 0 {
        let limit = 2 * (usize::BITS - v.len().leading_zeros());
        seq_quicksort(v, compare, ancestor.as_deref(), limit);
        return;
    }
    let ordered = match try_finish(v, compare, par_reverse) {
        Finish::Sorted => return,
        Finish::NearlySorted => true,
        Finish::Unordered => false,
    };
    let (left_budget, right_budget) = budget.halves();
    let blocks = budget.threads.min(MAX_BLOCKS);
    // A nearly sorted piece is partitioned on this thread, keeping its order.
    if blocks >= 2 && v.len() / blocks >= MIN_BLOCK && !ordered {
        let mid = par_partition(v, blocks, compare);
        // Everything on one side of all pivots means many equal elements: the
        // sequential partition below deals with those.
        if 0 < mid && mid < v.len() {
            let (left, right) = v.split_at_mut(mid);
            crate::join(
                || recurse(left, compare, ancestor, left_budget),
                || recurse(right, compare, None, right_budget),
            );
            mend_seam(v, mid, compare);
            return;
        }
    }
    let chosen = median_of_sample(v, compare);
    if let Some(lower) = ancestor.as_deref() {
        if !is_less(compare, lower, &v[chosen]) {
            // The pivot equals the lower bound: everything not greater than it is
            // equal to it and already in its final place once moved to the front.
            v.swap(0, chosen);
            let (pivot, rest) = v.split_first_mut().expect("v is longer than a leaf");
            let n_equal = partition(rest, |x| !is_less(compare, pivot, x));
            let rest_budget = Budget {
                depth: budget.depth - 1,
                ..budget
            };
            recurse(&mut rest[n_equal..], compare, ancestor, rest_budget);
            return;
        }
    }
    let n_less = if ordered {
        partition_around(v, chosen, |x, p| is_less(compare, x, p))
    } else {
        v.swap(0, chosen);
        let (pivot, rest) = v.split_first_mut().expect("v is longer than a leaf");
        let n_less = partition(rest, |x| is_less(compare, x, pivot));
        v.swap(0, n_less);
        n_less
    };
    let (left, right) = v.split_at_mut(n_less);
    let (pivot, right) = right.split_first_mut().expect("the pivot is there");
    crate::join(
        || recurse(left, compare, ancestor, left_budget),
        || recurse(right, compare, Some(pivot), right_budget),
    );
}
