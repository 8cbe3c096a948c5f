//! `zip` of two slices, multiplied and summed (10^7 items): prorata vs rayon vs
//! sequential std. Short criterion settings: the machine is small and shared.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use prorata::iter::plumbing::*;

const LEN: usize = 10_000_000;

/// A sum through the public plumbing, so this bench needs only the indexed layer.
fn par_sum<I: prorata::iter::ParallelIterator<Item = u64>>(iter: I) -> u64 {
    iter.drive_unindexed(Sum(0))
}

struct Sum(u64);

struct Add;

impl Reducer<u64> for Add {
    fn reduce(self, left: u64, right: u64) -> u64 {
        left.wrapping_add(right)
    }
}

impl Consumer<u64> for Sum {
    type Folder = Sum;
    type Reducer = Add;
    type Result = u64;

    fn split_at(self, _index: usize) -> (Self, Self, Add) {
        (Sum(0), Sum(0), Add)
    }

    fn into_folder(self) -> Sum {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

impl UnindexedConsumer<u64> for Sum {
    fn split_off_left(&self) -> Self {
        Sum(0)
    }

    fn to_reducer(&self) -> Add {
        Add
    }
}

impl Folder<u64> for Sum {
    type Result = u64;

    fn consume(self, item: u64) -> Self {
        Sum(self.0.wrapping_add(item))
    }

    fn consume_iter<It: IntoIterator<Item = u64>>(self, iter: It) -> Self {
        Sum(iter.into_iter().fold(self.0, u64::wrapping_add))
    }

    fn complete(self) -> u64 {
        self.0
    }

    fn full(&self) -> bool {
        false
    }
}

fn prorata_zip_sum(a: &[u64], b: &[u64]) -> u64 {
    use prorata::prelude::*;
    par_sum(a.par_iter().zip(b).map(|(x, y)| x * y))
}

fn rayon_zip_sum(a: &[u64], b: &[u64]) -> u64 {
    use rayon::prelude::*;
    a.par_iter().zip(b).map(|(x, y)| x * y).sum()
}

fn zip_sum(c: &mut Criterion) {
    let a: Vec<u64> = (0..LEN as u64).map(|x| x % 1000).collect();
    let b: Vec<u64> = (0..LEN as u64).map(|x| (x * 7) % 1000).collect();
    let expected: u64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
    assert_eq!(prorata_zip_sum(&a, &b), expected);
    assert_eq!(rayon_zip_sum(&a, &b), expected);

    let mut group = c.benchmark_group("zip_sum_1e7");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("sequential", |bench| {
        bench.iter(|| {
            let s: u64 = black_box(&a)
                .iter()
                .zip(black_box(&b))
                .map(|(x, y)| x * y)
                .sum();
            s
        })
    });
    group.bench_function("prorata", |bench| {
        bench.iter(|| prorata_zip_sum(black_box(&a), black_box(&b)))
    });
    group.bench_function("rayon", |bench| {
        bench.iter(|| rayon_zip_sum(black_box(&a), black_box(&b)))
    });
    group.finish();
}

criterion_group!(benches, zip_sum);
criterion_main!(benches);
