// Reports the size of rayon's global pool; with "work N", first sums N
// million square roots on it (a CPU-bound loop for tests/bench/outcomes).
use rayon::prelude::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() > 2 && args[1] == "work" {
        let n: u64 = args[2].parse().expect("work N: N millions");
        let sum: f64 = (0..n * 1_000_000).into_par_iter().map(|i| (i as f64).sqrt()).sum();
        println!("rayon={} sum={:.0}", rayon::current_num_threads(), sum);
        return;
    }
    println!("rayon={}", rayon::current_num_threads());
}
