//! Runs one sort once, for `valgrind --tool=callgrind`, whose instruction
//! counts repeat exactly whatever else the machine does. The parallel sorts
//! run on a pool of one thread, so the count is that of their sequential
//! pieces (plus their checks), beside std's sort of the same input.
//!
//! ```text
//! cargo build --release --example sort_instructions
//! valgrind --tool=callgrind --toggle-collect='*measured*' \
//!     target/release/examples/sort_instructions prorata stable few 100000
//! ```
//!
//! Arguments: `std`, `rayon` or `prorata`; `stable` or `unstable`; the shape
//! (`random`, `few` (16 distinct values), `sorted`, `reversed`, `ascending`
//! or `descending` (√n random swaps), `wide64` (`[u64; 8]` by its first field), `wide128`
//! (`[u64; 16]`), `pairs` (`(u32, u32)`, the first below 1,000), `records`
//! (`(u64, u64)`), `f64` (by `total_cmp`), `string`, or another `u64` shape of
//! `sort_compare`'s grid by its name there, such as `"4 runs"` or `runs+noise`);
//! the length. `THREADS` sets the pools' threads
//! (default 1); with more, count with `--toggle-collect='*slice::sort*'`, which
//! takes in the pieces the other threads run.

use std::cmp::Ordering;
use std::hint::black_box;

#[path = "common/sort_grid.rs"]
#[allow(dead_code)] // only `f64` and the `u64` shapes are taken from the grid
mod sort_grid;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The sort to count, given its input.
type Sort<T> = fn(&mut [T]);

/// Runs `sort` on `v`: the only function callgrind counts.
#[inline(never)]
fn measured<T>(v: &mut [T], sort: Sort<T>) {
    sort(v);
}

/// Sorts `v` with the named sort, on a one-thread pool for the parallel ones.
fn run<T: Ord + Send>(v: &mut [T], who: &str, stable: bool) {
    use prorata::prelude::ParallelSliceMut as P;
    use rayon::slice::ParallelSliceMut as R;
    let sort: Sort<T> = match (who, stable) {
        ("std", true) => |v| v.sort(),
        ("std", false) => |v| v.sort_unstable(),
        ("rayon", true) => |v| R::par_sort(v),
        ("rayon", false) => |v| R::par_sort_unstable(v),
        ("prorata", true) => |v| P::par_sort(v),
        ("prorata", false) => |v| P::par_sort_unstable(v),
        _ => panic!("std, rayon or prorata"),
    };
    let threads = std::env::var("THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(1);
    match who {
        "rayon" => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool")
            .install(|| measured(v, sort)),
        "prorata" => prorata::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool")
            .install(|| measured(v, sort)),
        _ => measured(v, sort),
    }
    assert!(v.windows(2).all(|w| w[0] <= w[1]), "sorted");
    black_box(v);
}

/// A 64-byte element ordered by its first field only.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Wide([u64; 8]);

impl PartialOrd for Wide {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Wide {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0[0].cmp(&other.0[0])
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [who, kind, shape, len] = &args[..] else {
        panic!("usage: sort_instructions std|rayon|prorata stable|unstable SHAPE LEN");
    };
    let stable = kind == "stable";
    let len: usize = len.parse().expect("a length");
    let mut rng = StdRng::seed_from_u64(42);
    let random: Vec<u64> = (0..len).map(|_| rng.random()).collect();
    let mut swapped = |mut v: Vec<u64>| {
        for _ in 0..(len as f64).sqrt() as usize {
            v.swap(rng.random_range(0..len), rng.random_range(0..len));
        }
        v
    };
    match shape.as_str() {
        "random" => run(&mut random.clone(), who, stable),
        "few" => run(
            &mut random.iter().map(|x| x % 16).collect::<Vec<_>>(),
            who,
            stable,
        ),
        "sorted" => run(&mut (0..len as u64).collect::<Vec<_>>(), who, stable),
        "reversed" => run(&mut (0..len as u64).rev().collect::<Vec<_>>(), who, stable),
        "ascending" => run(&mut swapped((0..len as u64).collect()), who, stable),
        "descending" => run(&mut swapped((0..len as u64).rev().collect()), who, stable),
        "wide64" => run(
            &mut random
                .iter()
                .map(|&x| Wide([x, 1, 2, 3, 4, 5, 6, 7]))
                .collect::<Vec<_>>(),
            who,
            stable,
        ),
        "wide128" => run(
            &mut random.iter().map(|&x| [x; 16]).collect::<Vec<_>>(),
            who,
            stable,
        ),
        "pairs" => run(
            &mut random
                .iter()
                .map(|&x| ((x >> 32) as u32 % 1000, x as u32))
                .collect::<Vec<_>>(),
            who,
            stable,
        ),
        "records" => run(
            &mut random.iter().map(|&x| (x, !x)).collect::<Vec<_>>(),
            who,
            stable,
        ),
        "f64" => run(&mut sort_grid::floats(&random), who, stable),
        "string" => run(
            &mut random.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
            who,
            stable,
        ),
        // The grid's other `u64` shapes, by their names there ("4 runs",
        // "runs+noise"); it panics on a name it does not know.
        grid => run(&mut sort_grid::u64_shape(grid, &random), who, stable),
    }
}
