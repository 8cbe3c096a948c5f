//! Ticket shares, measured from outside: the table of docs/benchmarks.md.
//!
//! Proportions (worst error of a 1 s window against the ticket fraction, for the
//! long and the repeated pattern, 3:1, 9:1, 3:2:1 and a two-level currency tree, on
//! 2 workers and on 8 workers sharing 2 cores), hand-over, a lone share against a
//! plain pool, the CPU of idle shares and the threads of idle shares, for each share
//! policy. See `measure.rs` for what each figure counts.
//!
//! ```text
//! cargo run --release --example shares -- [--windows N] [--trials N] [--rounds N]
//!     [--workers 2,8] [--cores 2] [--policies stride,lottery]
//!     [--only prop,handover,lone,idle,threads] [--detail]
//! ```
//!
//! `--detail` prints each proportions window share by share: its part of the
//! items and of the core time, and its grants and preemptions.

mod measure;

use measure::Plan;

fn parse() -> Plan {
    let mut a = Plan {
        windows: 2,
        trials: 20,
        rounds: 11,
        workers: vec![2, 8],
        cores: 2,
        policies: measure::POLICIES.to_vec(),
        only: None,
        detail: false,
    };
    let mut argv: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = argv.iter().position(|a| a == "--detail") {
        argv.remove(at);
        a.detail = true;
    }
    for pair in argv.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or("");
        let list = || value.split(',').map(str::to_string).collect::<Vec<_>>();
        match pair[0].as_str() {
            "--windows" => a.windows = value.parse().expect("--windows N"),
            "--cores" => a.cores = value.parse().expect("--cores N"),
            "--trials" => a.trials = value.parse().expect("--trials N"),
            "--rounds" => a.rounds = value.parse().expect("--rounds N"),
            "--workers" => {
                a.workers = list()
                    .iter()
                    .map(|w| w.parse().expect("--workers 2,8"))
                    .collect()
            }
            "--policies" => {
                a.policies = measure::POLICIES
                    .iter()
                    .filter(|(name, _)| list().iter().any(|n| n == name))
                    .copied()
                    .collect()
            }
            "--only" => a.only = Some(list()),
            other => panic!("unknown option {other}"),
        }
    }
    a
}

fn main() {
    let plan = parse();
    let micros = measure::calibrate(3.0);
    println!(
        "items of {micros:.2} µs; {} one-second windows after 300 ms of warm-up",
        plan.windows
    );
    measure::report(&plan);
}
