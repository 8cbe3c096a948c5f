//! Parallel sorts: prorata against Rayon and sequential std, side by side, on
//! the grid of lengths (10^3 to 10^7) and input shapes of `sort_compare`.
//!
//! For each input (shape, length) and each of stable and unstable sorting, the
//! group holds `std`, `rayon` and `prorata`; compare times within one group.
//! The whole grid takes a while; a filter runs part of it, for example
//! `cargo bench --bench sort -- 'sort/stable/u64-16-distinct'`.

use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
#[path = "../examples/common/sort_grid.rs"]
mod sort_grid;

/// Benches std, Rayon and prorata on `input`, stable and unstable.
fn bench_input<T: Clone + Ord + Send>(c: &mut Criterion, name: &str, input: &[T]) {
    for stable in [true, false] {
        let kind = if stable { "stable" } else { "unstable" };
        let mut group = c.benchmark_group(format!("sort/{kind}/{name}/{}", input.len()));
        let mut run = |label: &str, sort: fn(&mut [T])| {
            group.bench_function(label, |b| {
                b.iter_batched_ref(|| input.to_vec(), |v| sort(v), BatchSize::LargeInput)
            });
        };
        if stable {
            run("std", |v| v.sort());
            run("rayon", rayon::slice::ParallelSliceMut::par_sort);
            run("prorata", prorata::prelude::ParallelSliceMut::par_sort);
        } else {
            run("std", |v| v.sort_unstable());
            run("rayon", rayon::slice::ParallelSliceMut::par_sort_unstable);
            run(
                "prorata",
                prorata::prelude::ParallelSliceMut::par_sort_unstable,
            );
        }
        group.finish();
    }
}

fn sorts(c: &mut Criterion) {
    for len in [1_000, 10_000, 100_000, 1_000_000, 10_000_000] {
        let random = sort_grid::random(len, 0x5EED);
        for name in sort_grid::U64_SHAPES {
            let input = sort_grid::u64_shape(name, &random);
            bench_input(c, &format!("u64-{}", name.replace(' ', "-")), &input);
        }
        bench_input(c, "u32-pairs", &sort_grid::pairs(&random));
        bench_input(c, "u64-pairs", &sort_grid::records(&random));
        bench_input(c, "f64-total-cmp", &sort_grid::floats(&random));
        if len <= 1_000_000 {
            bench_input(c, "string", &sort_grid::strings(&random));
            bench_input(c, "64-byte", &sort_grid::structs(&random));
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = sorts
}
criterion_main!(benches);
