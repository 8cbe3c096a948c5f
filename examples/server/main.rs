//! A real server that runs CPU-heavy requests on prorata: tokio and axum serve two
//! tenants, each a currency of shares; an interactive endpoint (about 1 ms of CPU
//! per request) and a bulk one (about 200 ms), each request a share of its tenant,
//! awaited with `Share::spawn_future`.
//!
//! `cargo run --release --example server` measures, in one run, on 2 and on 8
//! workers: interactive latency (p50, p99) alone and while bulk requests keep
//! the cores busy, and bulk throughput, for prorata with shares, prorata's pool
//! with no shares, and a Rayon pool called from `spawn_blocking`; then it stops.
//! `-- <seconds> [workers,...]` sets each phase's length (default 5) and the pool
//! sizes (default `2,8`).
//!
//! `cargo run --release --example server -- serve [workers]` serves on
//! 127.0.0.1:3000 until stopped: try
//! `curl 'localhost:3000/interactive?tenant=alpha'`, `...?tenant=nobody` (400) and
//! `...?tenant=alpha&panic=1` (500).
//!
//! `cargo run --release --features trace --example server -- trace [OUT.svg]`
//! draws the timeline of one interactive request arriving while a bulk one runs.

mod app;
mod client;
mod load;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use app::{App, Backend, Sizes};
use load::{Outcome, Phase, quantile};

/// A server running on its own tokio runtime and thread, until `stop` is sent.
struct Server {
    addr: SocketAddr,
    stop: tokio::sync::oneshot::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

fn start(app: Arc<App>, addr: &str) -> Server {
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (bound, is_bound) = std::sync::mpsc::channel();
    let addr = addr.to_owned();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a tokio runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
            bound
                .send(listener.local_addr().expect("an address"))
                .unwrap();
            axum::serve(listener, app::router(app))
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await
                .expect("serve");
        });
    });
    let addr = is_bound.recv().expect("the server bound its address");
    Server { addr, stop, thread }
}

impl Server {
    fn stop(self) {
        let _ = self.stop.send(());
        self.thread.join().expect("the server thread");
    }
}

/// Runs `phase` from a client runtime of its own.
fn drive(addr: SocketAddr, sizes: Sizes, phase: Phase) -> Outcome {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a client runtime");
    rt.block_on(load::run(addr, sizes, phase))
}

/// One backend's row: latencies alone and under bulk load, bulk throughput.
struct Row {
    label: &'static str,
    alone: Outcome,
    bulk_alone: Outcome,
    both: Outcome,
}

fn measure(backend: Backend, sizes: Sizes, length: Duration) -> Row {
    let label = backend.label();
    let server = start(Arc::new(App { backend, sizes }), "127.0.0.1:0");
    let phase = |interactive, bulk| Phase {
        interactive,
        bulk,
        length,
    };
    // Warm: threads started, caches filled.
    drive(
        server.addr,
        sizes,
        Phase {
            length: Duration::from_millis(300),
            ..phase(true, false)
        },
    );
    let alone = drive(server.addr, sizes, phase(true, false));
    let bulk_alone = drive(server.addr, sizes, phase(false, true));
    let both = drive(server.addr, sizes, phase(true, true));
    server.stop();
    Row {
        label,
        alone,
        bulk_alone,
        both,
    }
}

fn ms(v: f64) -> String {
    format!("{:.2}", v * 1e3)
}

fn print_rows(workers: usize, rows: &mut [Row]) {
    println!(
        "\n{workers} workers (interactive: one request every {} ms; bulk: 2 connections back to back)",
        load::INTERACTIVE_PACE.as_millis()
    );
    println!(
        "{:<32} {:>17} {:>17} {:>10} {:>10} {:>8}",
        "", "alone p50/p99 ms", "+bulk p50/p99 ms", "bulk/s", "+inter.", "fail/lost"
    );
    for r in rows.iter_mut() {
        let (a50, a99) = (
            quantile(&mut r.alone.latencies, 0.5),
            quantile(&mut r.alone.latencies, 0.99),
        );
        let (b50, b99) = (
            quantile(&mut r.both.latencies, 0.5),
            quantile(&mut r.both.latencies, 0.99),
        );
        let failed = r.alone.failed + r.bulk_alone.failed + r.both.failed;
        let lost = r.alone.lost + r.bulk_alone.lost + r.both.lost;
        println!(
            "{:<32} {:>17} {:>17} {:>10.2} {:>10.2} {:>8}",
            r.label,
            format!("{} / {}", ms(a50), ms(a99)),
            format!("{} / {}", ms(b50), ms(b99)),
            r.bulk_alone.bulk_per_s,
            r.both.bulk_per_s,
            format!("{failed}/{lost}"),
        );
    }
    // The ratios the targets are stated in, from this run.
    let shares = &rows[0];
    let rayon = &rows[2];
    let mut s_alone = shares.alone.latencies.clone();
    let mut s_both = shares.both.latencies.clone();
    let mut r_both = rayon.both.latencies.clone();
    let s99 = quantile(&mut s_both, 0.99);
    println!(
        "shares: p99 with bulk / alone {:.2}, p50 with bulk / alone {:.2}, p99 / Rayon's p99 {:.3}; bulk/s with interactive / alone {:.2}",
        s99 / quantile(&mut s_alone, 0.99),
        quantile(&mut s_both, 0.5) / quantile(&mut s_alone, 0.5),
        s99 / quantile(&mut r_both, 0.99),
        shares.both.bulk_per_s / shares.bulk_alone.bulk_per_s,
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let first = args.next();
    if first.as_deref() == Some("serve") {
        let workers = args.next().map_or(2, |w| w.parse().expect("workers"));
        let sizes = app::calibrate();
        let app = Arc::new(App {
            backend: Backend::shares(workers),
            sizes,
        });
        let server = start(app, "127.0.0.1:3000");
        println!(
            "serving on http://{} ({workers} workers, {sizes:?})",
            server.addr
        );
        server.thread.join().expect("the server thread");
        return;
    }
    if first.as_deref() == Some("trace") {
        let out = args.next().unwrap_or_else(|| "serving.svg".to_owned());
        trace(&out);
        return;
    }
    let length = Duration::from_secs_f64(first.map_or(5.0, |s| s.parse().expect("seconds")));
    let workers: Vec<usize> = args.next().map_or(vec![2, 8], |w| {
        w.split(',').map(|n| n.parse().expect("workers")).collect()
    });
    let sizes = app::calibrate();
    println!("units per request: {sizes:?} (about 1 ms and 200 ms of CPU); phases of {length:?}");
    for workers in workers {
        let mut rows = vec![
            measure(Backend::shares(workers), sizes, length),
            measure(Backend::pool(workers), sizes, length),
            measure(Backend::rayon(workers), sizes, length),
        ];
        print_rows(workers, &mut rows);
    }
}

/// Records the timeline of one interactive request arriving while a bulk one runs
/// (2 workers, shares) and writes it as SVG to `out`; prints each lane's events.
#[cfg(feature = "trace")]
fn trace(out: &str) {
    let sizes = app::calibrate();
    let app = Arc::new(App {
        backend: Backend::shares(2),
        sizes,
    });
    let server = start(Arc::clone(&app), "127.0.0.1:0");
    let Backend::Shares { pool, .. } = &app.backend else {
        unreachable!()
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a client runtime");
    let picture = rt.block_on(async {
        let mut bulk = client::Conn::connect(server.addr).await.expect("connect");
        let mut interactive = client::Conn::connect(server.addr).await.expect("connect");
        // Warm the interactive path, then start a bulk request and let it take the cores.
        for _ in 0..20 {
            interactive
                .get("/interactive?tenant=alpha")
                .await
                .expect("answer");
        }
        let bulk = tokio::spawn(async move { bulk.get("/bulk?tenant=beta").await });
        tokio::time::sleep(Duration::from_millis(60)).await;
        pool.start_trace();
        tokio::time::sleep(Duration::from_millis(1)).await;
        let sent = std::time::Instant::now();
        let a = interactive
            .get("/interactive?tenant=alpha")
            .await
            .expect("answer");
        let took = sent.elapsed();
        tokio::time::sleep(Duration::from_millis(1)).await;
        let picture = pool.stop_trace();
        assert_eq!(a.status, 200);
        println!(
            "the interactive request took {:.2} ms",
            took.as_secs_f64() * 1e3
        );
        bulk.await.expect("the bulk task").expect("the bulk answer");
        picture
    });
    for lane in picture.lanes() {
        let events: Vec<String> = lane
            .events
            .iter()
            .map(|e| format!("{:.0}:{:?}", e.at.as_secs_f64() * 1e6, e.kind))
            .collect();
        println!("{} w{}: {}", lane.pool, lane.worker, events.join(" "));
    }
    let file = std::fs::File::create(out).expect("the output file");
    picture.write_svg(file).expect("the SVG");
    println!("wrote {out}");
    server.stop();
}

#[cfg(not(feature = "trace"))]
fn trace(_out: &str) {
    eprintln!(
        "the timeline needs the trace feature: cargo run --release --features trace --example server -- trace [OUT.svg]"
    );
    std::process::exit(2);
}
