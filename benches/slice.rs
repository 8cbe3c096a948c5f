//! Slice, string and collection iterators: sequential std, prorata and rayon side by
//! side, in one run. Short criterion settings: the machine is small and shared.

use std::collections::HashSet;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

const LEN: usize = 1 << 22;

fn numbers() -> Vec<u32> {
    (0..LEN as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 20)
        .collect()
}

fn text() -> String {
    let words = [
        "lorem",
        "ipsum",
        "dolor",
        "sit",
        "amet,",
        "consectetur",
        "adipiscing",
        "élit",
    ];
    let mut s = String::with_capacity(LEN * 2);
    for i in 0..LEN / 6 {
        s.push_str(words[i * 7 % words.len()]);
        s.push(if i % 11 == 10 { '\n' } else { ' ' });
    }
    s
}

fn chunks(c: &mut Criterion) {
    let v = numbers();
    let mut g = c.benchmark_group("chunks_sum");
    g.bench_function("std", |b| {
        b.iter(|| {
            v.chunks(1000)
                .map(|c| c.iter().map(|&x| x as u64).sum::<u64>())
                .max()
        })
    });
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| {
            v.par_chunks(1000)
                .map(|c| c.iter().map(|&x| x as u64).sum::<u64>())
                .max()
        })
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| {
            v.par_chunks(1000)
                .map(|c| c.iter().map(|&x| x as u64).sum::<u64>())
                .max()
        })
    });
    g.finish();
}

fn windows(c: &mut Criterion) {
    let v = numbers();
    let mut g = c.benchmark_group("windows_rising");
    g.bench_function("std", |b| {
        b.iter(|| v.windows(4).filter(|w| w[0] < w[3]).count())
    });
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| v.par_windows(4).filter(|w| w[0] < w[3]).count())
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| v.par_windows(4).filter(|w| w[0] < w[3]).count())
    });
    g.finish();
}

fn split(c: &mut Criterion) {
    let v = numbers();
    let sep = |x: &u32| x % 97 == 0;
    let mut g = c.benchmark_group("split_longest");
    g.bench_function("std", |b| b.iter(|| v.split(sep).map(<[u32]>::len).max()));
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| v.par_split(sep).map(<[u32]>::len).max())
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| v.par_split(sep).map(<[u32]>::len).max())
    });
    g.finish();
}

fn strings(c: &mut Criterion) {
    let s = text();
    let mut g = c.benchmark_group("str_words");
    g.bench_function("std", |b| {
        b.iter(|| black_box(&s).split_whitespace().count())
    });
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| black_box(&s).par_split_whitespace().count())
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| black_box(&s).par_split_whitespace().count())
    });
    g.finish();
    let mut g = c.benchmark_group("str_split_char");
    g.bench_function("std", |b| b.iter(|| black_box(&s).split(',').count()));
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| black_box(&s).par_split(',').count())
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| black_box(&s).par_split(',').count())
    });
    g.finish();
    let mut g = c.benchmark_group("str_chars");
    g.bench_function("std", |b| {
        b.iter(|| black_box(&s).chars().filter(|c| c.is_alphabetic()).count())
    });
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| {
            black_box(&s)
                .par_chars()
                .filter(|c| c.is_alphabetic())
                .count()
        })
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| {
            black_box(&s)
                .par_chars()
                .filter(|c| c.is_alphabetic())
                .count()
        })
    });
    g.finish();
}

fn collections(c: &mut Criterion) {
    let v = numbers();
    let mut g = c.benchmark_group("hash_set_collect");
    g.bench_function("std", |b| {
        b.iter(|| v.iter().map(|x| x / 4).collect::<HashSet<_>>().len())
    });
    g.bench_function("prorata", |b| {
        use prorata::prelude::*;
        b.iter(|| v.par_iter().map(|x| x / 4).collect::<HashSet<_>>().len())
    });
    g.bench_function("rayon", |b| {
        use rayon::prelude::*;
        b.iter(|| v.par_iter().map(|x| x / 4).collect::<HashSet<_>>().len())
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = chunks, windows, split, strings, collections
}
criterion_main!(benches);
