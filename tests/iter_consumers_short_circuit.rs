//! Short-circuiting consumers and adaptors stop early: the number of items a
//! closure was called on (counted, never timed) stays far below the length when
//! matches are found early.
//!
//! Matches are placed every `EVERY` items, so each piece of the split work meets
//! one within `EVERY` items wherever it starts; a stopping search then visits at
//! most about `EVERY` items per piece, far fewer than `LEN`.

mod common;

use common::cases::pools;
use prorata::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

const LEN: usize = 1_000_000;
const EVERY: usize = 1000;

/// Runs `search` (given a visit counter) on every pool; asserts it visited less
/// than a tenth of the items.
fn stops_early(name: &str, search: impl Fn(&AtomicUsize) + Sync) {
    for pool in pools() {
        let visited = AtomicUsize::new(0);
        pool.install(|| search(&visited));
        let visited = visited.into_inner();
        assert!(
            visited < LEN / 10,
            "{name} visited {visited} of {LEN} items"
        );
    }
}

fn hit(visited: &AtomicUsize, x: usize) -> bool {
    visited.fetch_add(1, Ordering::Relaxed);
    x % EVERY == EVERY - 1
}

#[test]
fn find_any_and_find_map_any_stop_early() {
    stops_early("find_any", |seen| {
        let found = (0..LEN).into_par_iter().find_any(|&x| hit(seen, x));
        assert!(found.is_some_and(|x| x % EVERY == EVERY - 1));
    });
    stops_early("find_map_any", |seen| {
        let found = (0..LEN)
            .into_par_iter()
            .find_map_any(|x| hit(seen, x).then_some(x));
        assert!(found.is_some());
    });
}

#[test]
fn find_first_and_last_stop_early_and_are_exact() {
    stops_early("find_first", |seen| {
        let found = (0..LEN).into_par_iter().find_first(|&x| hit(seen, x));
        assert_eq!(found, Some(EVERY - 1));
    });
    // `find_last` stops the pieces left of a piece with a match, but a leaf is read
    // front to back, so a search whose right part runs last visits everything: only
    // its result is checked.
    let seen = AtomicUsize::new(0);
    for pool in pools() {
        let found = pool.install(|| (0..LEN).into_par_iter().find_last(|&x| hit(&seen, x)));
        assert_eq!(found, Some(LEN - 1));
    }
    stops_early("find_map_first", |seen| {
        let found = (0..LEN)
            .into_par_iter()
            .find_map_first(|x| hit(seen, x).then_some(x));
        assert_eq!(found, Some(EVERY - 1));
    });
    stops_early("find_first over filter", |seen| {
        let odd = (0..LEN).into_par_iter().filter(|x| x % 2 == 1);
        assert_eq!(odd.find_first(|&x| hit(seen, x)), Some(EVERY - 1));
    });
}

#[test]
fn any_and_all_stop_early() {
    stops_early("any", |seen| {
        assert!((0..LEN).into_par_iter().any(|x| hit(seen, x)));
    });
    stops_early("all", |seen| {
        assert!(!(0..LEN).into_par_iter().all(|x| !hit(seen, x)));
    });
}

#[test]
fn try_consumers_stop_early() {
    stops_early("try_for_each", |seen| {
        let r = (0..LEN)
            .into_par_iter()
            .try_for_each(|x| if hit(seen, x) { Err(x) } else { Ok(()) });
        assert!(r.is_err());
    });
    stops_early("try_reduce", |seen| {
        let r = (0..LEN)
            .into_par_iter()
            .map(|x| if hit(seen, x) { None } else { Some(x) })
            .try_reduce(|| 0, |a, b| Some(a.max(b)));
        assert_eq!(r, None);
    });
    stops_early("try_fold", |seen| {
        let r = (0..LEN)
            .into_par_iter()
            .try_fold(
                || 0,
                |a: usize, x| {
                    if hit(seen, x) {
                        ControlFlow::Break(x)
                    } else {
                        ControlFlow::Continue(a + x)
                    }
                },
            )
            .try_reduce(|| 0, |a, b| ControlFlow::Continue(a + b));
        assert!(r.is_break());
    });
}

#[test]
fn take_any_and_while_some_stop_early() {
    stops_early("take_any", |seen| {
        let n = (0..LEN)
            .into_par_iter()
            .inspect(|_| {
                seen.fetch_add(1, Ordering::Relaxed);
            })
            .take_any(10)
            .count();
        assert_eq!(n, 10);
    });
    stops_early("take_any_while", |seen| {
        let n = (0..LEN)
            .into_par_iter()
            .take_any_while(|&x| !hit(seen, x))
            .count();
        assert!(n < LEN);
    });
    stops_early("while_some", |seen| {
        let items = (0..LEN)
            .into_par_iter()
            .map(|x| (!hit(seen, x)).then_some(x));
        assert!(items.while_some().count() < LEN);
    });
}
