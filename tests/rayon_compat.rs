//! The same program against Rayon and prorata: the same panic messages for bad
//! arguments (programs and tests match on them), at the same moment.

mod common;

use std::collections::VecDeque;

/// Runs `$body` with `prorata` and then `rayon` as the crate `$r`: both must panic
/// with the same message, or both not at all.
macro_rules! same_panic {
    ($name:literal, |$r:ident| $body:expr) => {{
        let ours = std::panic::catch_unwind(|| {
            use prorata as $r;
            #[allow(unused_imports)]
            use $r::prelude::*;
            let _ = $body;
        });
        let theirs = std::panic::catch_unwind(|| {
            use rayon as $r;
            #[allow(unused_imports)]
            use $r::prelude::*;
            let _ = $body;
        });
        let text = |r: std::thread::Result<()>| match r {
            Ok(()) => String::from("<no panic>"),
            Err(payload) => common::panics::message_of(&*payload),
        };
        assert_eq!(text(ours), text(theirs), "{}", $name);
    }};
}

#[test]
fn bad_arguments_panic_with_rayons_messages() {
    let v: Vec<u32> = (0..10).collect();
    same_panic!("par_chunks(0)", |r| v.par_chunks(0).count());
    same_panic!("par_chunks_exact(0)", |r| v.par_chunks_exact(0).count());
    same_panic!("par_rchunks(0)", |r| v.par_rchunks(0).count());
    same_panic!("par_rchunks_exact(0)", |r| v.par_rchunks_exact(0).count());
    same_panic!("par_chunks_mut(0)", |r| v.clone().par_chunks_mut(0).count());
    same_panic!("par_rchunks_exact_mut(0)", |r| {
        v.clone().par_rchunks_exact_mut(0).count()
    });
    same_panic!("chunks(0)", |r| v.par_iter().chunks(0).count());
    same_panic!("fold_chunks(0)", |r| {
        v.par_iter().fold_chunks(0, || 0, |a, _| a).count()
    });
    same_panic!("fold_chunks_with(0)", |r| {
        v.par_iter().fold_chunks_with(0, 0, |a, _| a).count()
    });
    same_panic!("by_uniform_blocks(0)", |r| v
        .par_iter()
        .by_uniform_blocks(0)
        .count());
    same_panic!("par_windows(0), unused", |r| v.par_windows(0));
    same_panic!("par_windows(0), used", |r| v.par_windows(0).count());
    for (start, end) in [(0, 11), (11, 12), (5, 3)] {
        same_panic!("Vec::par_drain", |r| v
            .clone()
            .par_drain(start..end)
            .count());
        same_panic!("Vec::par_drain, inclusive", |r| {
            v.clone().par_drain(start..=end).count()
        });
        same_panic!("VecDeque::par_drain", |r| {
            VecDeque::from(v.clone()).par_drain(start..end).count()
        });
        same_panic!("String::par_drain", |r| {
            String::from("0123456789").par_drain(start..end).count()
        });
    }
    same_panic!("par_drain(..=usize::MAX)", |r| v
        .clone()
        .par_drain(..=usize::MAX)
        .count());
}

/// Counts the clones and drops of an element, so that a program can see how often a
/// source makes its items.
#[derive(Debug)]
struct Counted<'c>(&'c [std::sync::atomic::AtomicUsize; 2]);

impl Clone for Counted<'_> {
    fn clone(&self) -> Self {
        self.0[0].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Counted(self.0)
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.0[1].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Runs `$body` with `prorata` and then `rayon` as the crate `$r`, with `$c` a fresh
/// `Counted` element: both must clone and drop it the same number of times.
macro_rules! same_clones_and_drops {
    ($name:literal, |$r:ident, $c:ident| $body:expr) => {{
        let run = |which: &str| {
            let counters: [std::sync::atomic::AtomicUsize; 2] = Default::default();
            let result = {
                let $c = Counted(&counters);
                if which == "prorata" {
                    use prorata as $r;
                    #[allow(unused_imports)]
                    use $r::prelude::*;
                    format!("{:?}", $body)
                } else {
                    use rayon as $r;
                    #[allow(unused_imports)]
                    use $r::prelude::*;
                    format!("{:?}", $body)
                }
            };
            let read = |i: usize| counters[i].load(std::sync::atomic::Ordering::Relaxed);
            (result, read(0), read(1))
        };
        let (ours, theirs) = (run("prorata"), run("rayon"));
        assert_eq!(ours, theirs, "{}: (result, clones, drops)", $name);
    }};
}

#[test]
fn repeat_n_makes_its_items_as_rayon_does() {
    for n in [0, 1, 2, 1000] {
        same_clones_and_drops!("count", |r, c| r::iter::repeat_n(c, n).count());
        same_clones_and_drops!("clone then count", |r, c| {
            let it = r::iter::repeat_n(c, n);
            (it.clone().count(), it.count())
        });
        same_clones_and_drops!("len", |r, c| r::iter::repeat_n(c, n).len());
        same_clones_and_drops!("skip then count", |r, c| r::iter::repeat_n(c, n)
            .skip(n / 2)
            .count());
        same_clones_and_drops!("collect", |r, c| r::iter::repeat_n(c, n)
            .collect::<Vec<_>>()
            .len());
        same_clones_and_drops!("last", |r, c| r::iter::repeat_n(c, n)
            .with_min_len(n.max(1))
            .find_last(|_| true)
            .is_some());
    }
}
