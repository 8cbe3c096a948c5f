use super::sim::{Sim, assert_close, fractions};
use super::stride_tests::flat;
use crate::shares::policy::SharePolicy::{Lottery, Stride};

#[test]
fn lottery_converges_to_the_ticket_fractions() {
    for cores in [2, 8] {
        for tickets in [&[3, 1][..], &[9, 1], &[3, 2, 1]] {
            let got = flat(Lottery, cores, tickets, 2500);
            assert_close(&got, &fractions(tickets), 0.03);
        }
    }
}

#[test]
fn lottery_currency_tree_and_work_conservation() {
    let mut sim = Sim::new(8, Lottery);
    let alice = sim.add(None, 300, 0);
    sim.add(Some(alice), 200, 8);
    let t2 = sim.add(Some(alice), 100, 8);
    sim.add(None, 100, 8);
    assert_close(&sim.run(1000), &[0.0, 0.5, 0.25, 0.25], 0.03);
    sim.set_want(t2, 0);
    assert_close(&sim.run(1000), &[0.0, 0.75, 0.0, 0.25], 0.03);
}

#[test]
fn lottery_is_deterministic_for_a_seed() {
    let a = flat(Lottery, 2, &[3, 2, 1], 200);
    let b = flat(Lottery, 2, &[3, 2, 1], 200);
    assert_eq!(a, b);
}

/// The worst error of any share's fraction over ten one-second windows, and the
/// fractions achieved over the ten seconds, as a string.
fn worst_window_error(mut sim: Sim, want: &[f64]) -> (f64, String) {
    let mut worst: f64 = 0.0;
    let mut sum = vec![0.0; want.len()];
    for _ in 0..10 {
        let got = sim.run(250);
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            worst = worst.max((g - w).abs());
            sum[i] += g / 10.0;
        }
    }
    let show = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{x:.3}"))
            .collect::<Vec<_>>()
            .join(":")
    };
    (
        worst,
        format!("target {} achieved {}", show(want), show(&sum)),
    )
}

/// Not a test: prints the accuracy table quoted in the report.
/// `cargo test --release --lib accuracy_table -- --ignored --nocapture`
#[test]
#[ignore]
fn accuracy_table() {
    for cores in [2, 8] {
        for (name, policy) in [("stride", Stride), ("lottery", Lottery)] {
            for tickets in [&[3, 1][..], &[9, 1], &[3, 2, 1]] {
                let mut sim = Sim::new(cores, policy);
                for &t in tickets {
                    sim.add(None, t, cores);
                }
                let (worst, f) = worst_window_error(sim, &fractions(tickets));
                println!("P={cores} {tickets:?} {name}: {f}, worst 1 s window {worst:.4}");
            }
            let mut sim = Sim::new(cores, policy);
            let alice = sim.add(None, 300, 0);
            sim.add(Some(alice), 200, cores);
            sim.add(Some(alice), 100, cores);
            sim.add(None, 100, cores);
            let (worst, f) = worst_window_error(sim, &[0.0, 0.5, 0.25, 0.25]);
            println!("P={cores} alice(300:[200,100]),bob(100) {name}: {f}, worst {worst:.4}");
        }
    }
}
