//! A short tour of what prorata does today. Run with
//! `cargo run --release --example tour`.

fn fib(n: u32) -> u64 {
    if n < 2 {
        return n as u64;
    }
    let (a, b) = prorata::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn main() {
    println!("prorata tour");
    println!(
        "  workers in the global pool: {}",
        prorata::current_num_threads()
    );
    println!("  fib(20) through join: {}", fib(20));
}
