//! Rows of Rayon's own benchmark programs (rayon-demo), timed the way its harness
//! times them: each library's global pool, called from the main thread, the
//! workload run back to back and its mean time per call taken, prorata beside
//! Rayon in one run.
//!
//! `cargo run --release --example demo_compare -- [rounds] [workers] [filter]`
//! (default: 15 rounds, 2 workers, every row; a filter keeps the rows whose name
//! contains it).
//!
//! This differs from `everyday_compare`, which calls each workload once per
//! round inside `install` on a pool of each library and keeps the best round: here
//! a call starts as the last one ends, from outside either pool, so what counts is
//! what a stream of calls costs (waking the workers, handing the call in, the
//! previous result freed inside the next call), as in a `#[bench]` loop. A round
//! runs each library's batch in turn (alternating which goes first) for about
//! 100 ms; the figure is the median over the rounds of each batch's mean, and the
//! ratio is that of the medians. Every result is checked against the sequential
//! std equivalent first.

use std::hint::black_box;
use std::time::{Duration, Instant};

#[macro_use]
#[path = "common/both.rs"]
mod both;

/// Mean seconds per call of `f` over a batch of about `target`, with one warm
/// call first.
fn batch(f: &mut dyn FnMut(), target: Duration) -> f64 {
    f();
    let start = Instant::now();
    let mut calls = 0u32;
    while start.elapsed() < target {
        f();
        calls += 1;
    }
    start.elapsed().as_secs_f64() / f64::from(calls)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(15);
    let workers: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let filter = args.get(3).cloned().unwrap_or_default();
    prorata::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build_global()
        .unwrap();
    rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build_global()
        .unwrap();

    const N: u32 = 4 * 1024 * 1024;
    const TREE: u64 = 100_000;
    let haystack: Vec<[u32; 1]> = both::xorshift(7)
        .take(10_000_000)
        .map(|x| [x as u32])
        .collect();
    let needle = haystack[haystack.len() / 2 - 1][0];
    let text: String = {
        // "abcdefg " repeated to 1 MB, its bytes shuffled (a space every 8 bytes
        // on average, at random places).
        let mut bytes: Vec<u8> = b"abcdefg ".iter().copied().cycle().take(1 << 20).collect();
        let mut r = both::xorshift(11);
        for i in (1..bytes.len()).rev() {
            let j = (r.next().unwrap() % (i as u64 + 1)) as usize;
            bytes.swap(i, j);
        }
        String::from_utf8(bytes).unwrap()
    };
    let words = text.split(' ').count();
    let big: Vec<[u64; 16]> = both::xorshift(13).take(50_000).map(|x| [x; 16]).collect();
    let mut big_sorted = big.clone();
    big_sorted.sort();

    type Pair<'a> = (Box<dyn FnMut() + 'a>, Box<dyn FnMut() + 'a>);
    let fold = |v: &Vec<u32>| assert!(v.iter().copied().eq(0..N));
    let mut rows: Vec<(&str, Pair)> = Vec::new();
    macro_rules! row {
        ($name:expr, $check:expr, $body:expr) => {{
            let (p, r) = both!($body);
            let check = $check;
            check(p());
            check(r());
            // As in rayon-demo, a call's result is kept until the next call's
            // replaces it: the last result is freed inside the next call, after
            // its own result is made.
            let (mut keep_p, mut keep_r) = (None, None);
            rows.push((
                $name,
                (
                    Box::new(move || {
                        let _last = keep_p.replace(black_box(p()));
                    }),
                    Box::new(move || {
                        let _last = keep_r.replace(black_box(r()));
                    }),
                ),
            ));
        }};
    }
    row!(
        "vec_collect::vec_i::with_fold",
        |v: Vec<u32>| fold(&v),
        (0..N)
            .into_par_iter()
            .fold(Vec::new, |mut v, x| {
                v.push(x);
                v
            })
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            })
    );
    row!(
        "vec_collect::vec_i_filtered::with_fold",
        |v: Vec<u32>| fold(&v),
        (0..N)
            .into_par_iter()
            .filter(|_| true)
            .fold(Vec::new, |mut v, x| {
                v.push(x);
                v
            })
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            })
    );
    row!(
        "tree::tree_postfix_sum",
        |s: u64| assert_eq!(s, TREE * (TREE - 1) / 2),
        // The tree as rayon-demo walks it: the root is the range's start, its
        // children the two halves of the rest (an iterator, no `Vec`).
        walk_tree_postfix(0..TREE, |r| {
            let mid = (r.start + 1 + r.end) / 2;
            std::iter::once((r.start + 1)..mid)
                .chain(std::iter::once(mid..r.end))
                .filter(|r| !r.is_empty())
        })
        .map(|r| r.start)
        .sum::<u64>()
    );
    row!(
        "find::size1::parallel_find_any_middle",
        |f: Option<&[u32; 1]>| assert_eq!(f.unwrap()[0], needle),
        haystack.par_iter().find_any(|&&x| x[0] == needle)
    );
    row!(
        "str_split::parallel_space_char",
        |n: usize| assert_eq!(n, words),
        text.par_split(' ').count()
    );
    row!(
        "sort::par_sort_big",
        |v: Vec<[u64; 16]>| assert!(v == big_sorted),
        {
            let mut v = big.clone();
            v.par_sort();
            v
        }
    );

    println!("rayon-demo rows, {workers} workers, median of {rounds} rounds of ~100 ms batches");
    println!(
        "{:<42} {:>12} {:>12} {:>8}",
        "row", "prorata µs", "Rayon µs", "ratio"
    );
    let mut ratios = Vec::new();
    for (name, (p, r)) in rows.iter_mut() {
        if !name.contains(filter.as_str()) {
            continue;
        }
        let (mut tp, mut tr) = (Vec::new(), Vec::new());
        for round in 0..rounds {
            let target = Duration::from_millis(100);
            if round % 2 == 0 {
                tp.push(batch(p, target));
                tr.push(batch(r, target));
            } else {
                tr.push(batch(r, target));
                tp.push(batch(p, target));
            }
        }
        let (mp, mr) = (median(tp), median(tr));
        ratios.push(mp / mr);
        println!(
            "{name:<42} {:>12.1} {:>12.1} {:>8.2}",
            mp * 1e6,
            mr * 1e6,
            mp / mr
        );
    }
    let geomean = (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp();
    println!("geometric mean of the ratios: {geomean:.2}");
}
