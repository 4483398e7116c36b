// Reports the size of rayon's global pool.
fn main() {
    println!("rayon={}", rayon::current_num_threads());
}
