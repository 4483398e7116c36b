// probe_rust.rs - what Rust's standard library decides for this process,
// for `governor doctor --runtimes`: std::thread::available_parallelism(),
// which rayon and tokio size their pools from unless told.
fn main() {
    println!("version=rustc {}", env!("GOV_RUSTC_VERSION"));
    match std::thread::available_parallelism() {
        Ok(n) => println!("threads={}", n),
        Err(_) => println!("threads=none"),
    }
}
