//! A workload for counting instructions per `join` under callgrind
//! (`ci/join_instructions.sh` runs it): fib(n) with no cut-off, sequentially or through
//! one library's `join` inside a one-worker pool.
//!
//! `cargo run --release --example join_instructions -- MODE N` (MODE: seq, prorata, rayon)

use std::hint::black_box;

fn fib_seq(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    fib_seq(n - 1) + fib_seq(n - 2)
}

fn fib_prorata(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = prorata::join(|| fib_prorata(n - 1), || fib_prorata(n - 2));
    a + b
}

fn fib_rayon(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = rayon::join(|| fib_rayon(n - 1), || fib_rayon(n - 2));
    a + b
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "seq".into());
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let result = match mode.as_str() {
        "seq" => fib_seq(black_box(n)),
        "prorata" => {
            let pool = prorata::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            pool.install(|| fib_prorata(black_box(n)))
        }
        "rayon" => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            pool.install(|| fib_rayon(black_box(n)))
        }
        other => panic!("unknown mode {other}: seq, prorata or rayon"),
    };
    println!("{result}");
}
