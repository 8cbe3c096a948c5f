//! Everyday Rayon workloads (fold into a `Vec`, string splits, tree walks, length
//! limits, searches), prorata beside Rayon in one run.
//!
//! `cargo run --release --example everyday_compare -- [rounds] [workers] [filter]`
//! (default: 15 rounds, 2 workers, every row; a filter keeps the rows whose name
//! contains it).
//!
//! Each workload is written once and expanded twice, with `prorata::prelude` and with
//! `rayon::prelude` in scope, and runs inside `install` on a pool of each library. A
//! round times every version once, in turn; the figure kept is the best time over the
//! rounds, so that a shared machine's slow moments hit the versions alike and drop out.
//! Every result is checked against the sequential std equivalent first.

use std::collections::LinkedList;
use std::hint::black_box;
use std::time::Instant;

#[macro_use]
#[path = "common/both.rs"]
mod both;

/// A binary tree over `0..n`: each range splits into two halves.
fn halves(r: &std::ops::Range<u64>) -> Vec<std::ops::Range<u64>> {
    if r.end - r.start < 2 {
        return Vec::new();
    }
    let mid = r.start + (r.end - r.start) / 2;
    vec![r.start..mid, mid..r.end]
}

/// The ranges of the tree of [`halves`] in prefix order, sequentially.
fn prefix_seq(r: std::ops::Range<u64>, out: &mut Vec<u64>) {
    out.push(r.start);
    for child in halves(&r) {
        prefix_seq(child, out);
    }
}

/// The same in postfix order.
fn postfix_seq(r: std::ops::Range<u64>, out: &mut Vec<u64>) {
    for child in halves(&r) {
        postfix_seq(child, out);
    }
    out.push(r.start);
}

struct Bench {
    rounds: usize,
    ours: prorata::ThreadPool,
    theirs: rayon::ThreadPool,
    ratios: Vec<f64>,
    only: Option<String>,
}

impl Bench {
    /// Checks both versions against `expected`, then times them; prints one row.
    fn row<R: PartialEq + std::fmt::Debug + Send>(
        &mut self,
        name: &str,
        expected: R,
        (ours, theirs): (impl Fn() -> R + Sync, impl Fn() -> R + Sync),
    ) {
        if self
            .only
            .as_ref()
            .is_some_and(|only| !name.contains(only.as_str()))
        {
            return;
        }
        assert_eq!(self.ours.install(&ours), expected, "{name}: prorata");
        assert_eq!(self.theirs.install(&theirs), expected, "{name}: rayon");
        // Repeat fast workloads so that one sample lasts about a millisecond.
        let once = {
            let start = Instant::now();
            black_box(self.theirs.install(&theirs));
            start.elapsed().as_secs_f64()
        };
        let reps = ((1e-3 / once.max(1e-9)) as usize).clamp(1, 10_000);
        let time = |f: &dyn Fn()| {
            let start = Instant::now();
            for _ in 0..reps {
                f();
            }
            start.elapsed().as_secs_f64() / reps as f64
        };
        let mut best = [f64::MAX; 2];
        for round in 0..self.rounds {
            // Each round starts with the other library, so neither always goes first.
            for k in [round % 2, 1 - round % 2] {
                let t = if k == 0 {
                    time(&|| drop(black_box(self.ours.install(&ours))))
                } else {
                    time(&|| drop(black_box(self.theirs.install(&theirs))))
                };
                best[k] = best[k].min(t);
            }
        }
        let ratio = best[0] / best[1];
        self.ratios.push(ratio);
        println!(
            "{name:<62} {:>10.3} {:>10.3} {ratio:>8.2}",
            best[0] * 1e3,
            best[1] * 1e3
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds = args.next().and_then(|s| s.parse().ok()).unwrap_or(15);
    let workers = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
    let (ours, theirs) = both::pools(workers);
    let mut b = Bench {
        rounds,
        ours,
        theirs,
        ratios: Vec::new(),
        only: args.next(),
    };
    println!("{workers} workers; best of {rounds} interleaved rounds");
    println!(
        "{:<62} {:>10} {:>10} {:>8}",
        "workload", "prorata ms", "rayon ms", "ratio"
    );

    // fold into Vecs
    let n = 4_000_000u32;
    b.row(
        "(0..4M).fold(Vec::new, push).reduce(Vec::new, append)",
        (0..n).collect::<Vec<_>>(),
        both!(
            (0..n)
                .into_par_iter()
                .fold(Vec::new, |mut v, x| {
                    v.push(x);
                    v
                })
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                })
        ),
    );
    b.row(
        "(0..4M).filter(odd).fold(Vec::new, push).reduce(append)",
        (0..n).filter(|x| x % 2 == 1).collect::<Vec<_>>(),
        both!(
            (0..n)
                .into_par_iter()
                .filter(|x| x % 2 == 1)
                .fold(Vec::new, |mut v, x| {
                    v.push(x);
                    v
                })
                .reduce(Vec::new, |mut a, mut b| {
                    a.append(&mut b);
                    a
                })
        ),
    );
    b.row(
        "(0..4M).fold(Vec::new, push).collect::<LinkedList<Vec>>, appended",
        (0..n).collect::<Vec<_>>(),
        both!({
            let list: LinkedList<Vec<u32>> = (0..n)
                .into_par_iter()
                .fold(Vec::new, |mut v, x| {
                    v.push(x);
                    v
                })
                .collect();
            let mut all = Vec::with_capacity(list.iter().map(Vec::len).sum());
            for mut v in list {
                all.append(&mut v);
            }
            all
        }),
    );
    let m = 256 * 1024u32;
    b.row(
        "(0..256K).map(|i| (i % 10, i)).collect::<LinkedList<_>>()",
        (0..m).map(|i| (i % 10, i)).collect::<LinkedList<_>>(),
        both!(
            (0..m)
                .into_par_iter()
                .map(|i| (i % 10, i))
                .collect::<LinkedList<_>>()
        ),
    );

    // strings
    let small = "the quick brown fox\tjumps over the lazy dog,\nand then some.\n".repeat(16_000);
    let text = "the quick brown fox jumps over the lazy dog\n".repeat(200_000);
    let seps = [' ', '\n', '\t', ','];
    b.row(
        "1 MB par_split(&[' ', '\\n', '\\t', ',']).count()",
        small.split(&seps[..]).count(),
        both!(small.par_split(&seps[..]).count()),
    );
    b.row(
        "1 MB par_split(' ').count()",
        small.split(' ').count(),
        both!(small.par_split(' ').count()),
    );
    b.row(
        "8.8 MB par_split_whitespace().filter(len 5).count()",
        text.split_whitespace().filter(|w| w.len() == 5).count(),
        both!(text.par_split_whitespace().filter(|w| w.len() == 5).count()),
    );
    b.row(
        "8.8 MB par_split_ascii_whitespace().count()",
        text.split_ascii_whitespace().count(),
        both!(text.par_split_ascii_whitespace().count()),
    );
    b.row(
        "8.8 MB par_chars().filter(== 'o').count()",
        text.chars().filter(|c| *c == 'o').count(),
        both!(text.par_chars().filter(|c| *c == 'o').count()),
    );
    b.row(
        "8.8 MB par_bytes().filter(== b'o').count()",
        text.bytes().filter(|c| *c == b'o').count(),
        both!(text.par_bytes().filter(|c| *c == b'o').count()),
    );
    b.row(
        "8.8 MB par_split(' ').count()",
        text.split(' ').count(),
        both!(text.par_split(' ').count()),
    );

    // tree walks
    let (mut pre, mut post) = (Vec::new(), Vec::new());
    prefix_seq(0..100_000, &mut pre);
    postfix_seq(0..100_000, &mut post);
    b.row(
        "walk_tree_prefix(0..100K, halves).map(start).sum()",
        pre.iter().sum::<u64>(),
        both!(
            walk_tree_prefix(0..100_000u64, halves)
                .map(|r| r.start)
                .sum::<u64>()
        ),
    );
    b.row(
        "walk_tree_prefix(0..100K, halves).map(start).collect::<Vec>()",
        pre.clone(),
        both!(
            walk_tree_prefix(0..100_000u64, halves)
                .map(|r| r.start)
                .collect::<Vec<_>>()
        ),
    );
    b.row(
        "walk_tree_postfix(0..100K, halves).map(start).sum()",
        post.iter().sum::<u64>(),
        both!(
            walk_tree_postfix(0..100_000u64, halves)
                .map(|r| r.start)
                .sum::<u64>()
        ),
    );
    b.row(
        "walk_tree_postfix(0..100K, halves).map(start).collect::<Vec>()",
        post.clone(),
        both!(
            walk_tree_postfix(0..100_000u64, halves)
                .map(|r| r.start)
                .collect::<Vec<_>>()
        ),
    );

    // length limits
    let counters = std::sync::Mutex::new(vec![0usize; 100_000]);
    let expected: usize = 100_000;
    b.row(
        "100K usize par_iter_mut().with_max_len(100).for_each(inc)",
        expected,
        both!({
            let mut v = counters.lock().unwrap();
            v.par_iter_mut().with_max_len(100).for_each(|x| *x += 1);
            v.len()
        }),
    );
    b.row(
        "100K usize par_iter_mut().with_min_len(1024).for_each(inc)",
        expected,
        both!({
            let mut v = counters.lock().unwrap();
            v.par_iter_mut().with_min_len(1024).for_each(|x| *x += 1);
            v.len()
        }),
    );

    // searches
    let big: Vec<u32> = (0..10_000_000).collect();
    b.row(
        "find_any(== 5M) in 10M u32",
        Some(5_000_000),
        both!(big.par_iter().copied().find_any(|&x| x == 5_000_000)),
    );

    let geo = (b.ratios.iter().map(|r| r.ln()).sum::<f64>() / b.ratios.len() as f64).exp();
    let worst = b.ratios.iter().copied().fold(0.0, f64::max);
    println!("geometric mean of prorata/rayon {geo:.2}, worst {worst:.2}");
}
