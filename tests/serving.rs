//! The serving example (`examples/server/`) served for real on loopback, with
//! small computations, for each of its three backends: every request answered
//! with the right result, a 400 with a message on bad input, a 500 when the
//! computation panics, and the server still serving after both. No timing is
//! asserted.

use std::net::SocketAddr;
use std::sync::Arc;

#[path = "../examples/server/app.rs"]
mod app;
#[path = "../examples/server/client.rs"]
mod client;

use app::{App, Backend, Sizes, expected};
use client::Conn;

const SIZES: Sizes = Sizes {
    interactive: 5_000,
    bulk: 200_000,
};

/// Serves `backend` on a runtime of the test's own, runs `check` against it.
fn with_server<F, Fut>(backend: Backend, check: F)
where
    F: FnOnce(SocketAddr) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = Arc::new(App {
            backend,
            sizes: SIZES,
        });
        let server = tokio::spawn(async move {
            axum::serve(listener, app::router(app)).await.unwrap();
        });
        check(addr).await;
        server.abort();
    });
}

fn backends() -> Vec<Backend> {
    vec![Backend::shares(2), Backend::pool(2), Backend::rayon(2)]
}

#[test]
fn every_request_is_answered_with_its_result() {
    for backend in backends() {
        let label = backend.label();
        with_server(backend, |addr| async move {
            // 8 connections of interactive requests of both tenants, and bulk ones.
            let tasks: Vec<_> = (0..8)
                .map(|c| {
                    tokio::spawn(async move {
                        let mut conn = Conn::connect(addr).await.unwrap();
                        for i in 0..25 {
                            let (tenant, name) = [(0, "alpha"), (1, "beta")][(c + i) % 2];
                            let (path, units) = if i % 10 == 9 {
                                ("bulk", SIZES.bulk)
                            } else {
                                ("interactive", SIZES.interactive)
                            };
                            let a = conn.get(&format!("/{path}?tenant={name}")).await.unwrap();
                            assert_eq!(a.status, 200, "{label}: {}", a.body);
                            assert_eq!(a.body, expected(units, tenant), "{label}");
                        }
                        25
                    })
                })
                .collect();
            let mut answered = 0;
            for t in tasks {
                answered += t.await.unwrap();
            }
            assert_eq!(answered, 200, "{label}");
        });
    }
}

#[test]
fn bad_input_gets_a_400_with_a_message_and_the_server_goes_on() {
    for backend in backends() {
        let label = backend.label();
        with_server(backend, |addr| async move {
            let mut conn = Conn::connect(addr).await.unwrap();
            for (path, message) in [
                (
                    "/interactive",
                    "the query must name a tenant: ?tenant=alpha\n",
                ),
                (
                    "/interactive?tenant=gamma",
                    "unknown tenant `gamma`; the tenants are alpha and beta\n",
                ),
                (
                    "/bulk?tenant=alpha&panic=yes",
                    "`panic` is 0 or 1, not `yes`\n",
                ),
                ("/bulk?tenant=alpha&size=3", "unknown parameter `size`\n"),
            ] {
                let a = conn.get(path).await.unwrap();
                assert_eq!(
                    (a.status, a.body.as_str()),
                    (400, message),
                    "{label} {path}"
                );
            }
            let a = conn.get("/interactive?tenant=alpha").await.unwrap();
            assert_eq!((a.status, a.body), (200, expected(SIZES.interactive, 0)));
        });
    }
}

#[test]
fn a_panicking_computation_gets_a_500_and_the_server_goes_on() {
    // The panics are expected: keep them off the test's output.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for backend in backends() {
        let label = backend.label();
        with_server(backend, |addr| async move {
            let mut conn = Conn::connect(addr).await.unwrap();
            for i in 0..10 {
                let path = ["/interactive", "/bulk"][i % 2];
                let a = conn
                    .get(&format!("{path}?tenant=beta&panic=1"))
                    .await
                    .unwrap();
                assert_eq!(a.status, 500, "{label}");
                assert_eq!(a.body, "the computation panicked\n");
                let a = conn.get("/interactive?tenant=beta").await.unwrap();
                assert_eq!((a.status, a.body), (200, expected(SIZES.interactive, 1)));
            }
        });
    }
    std::panic::set_hook(hook);
}
