//! Times every input of a corpus directory through its target's check and prints the slowest:
//! `cargo run --release --example slowest -- TARGET DIR`.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (target, dir) = (&args[1], &args[2]);
    let check = layout_fuzz::checks::TARGETS
        .iter()
        .find(|(n, _)| n == target)
        .expect("a target name")
        .1;
    let mut times = Vec::new();
    for e in std::fs::read_dir(dir).expect("a directory") {
        let p = e.expect("an entry").path();
        if std::env::var_os("SHOW").is_some() {
            eprintln!("{}", p.display());
        }
        let data = std::fs::read(&p).expect("readable");
        let t = Instant::now();
        check(&data);
        times.push((t.elapsed().as_secs_f64(), p));
    }
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = times.iter().map(|t| t.0).sum();
    println!("{} inputs, {total:.3} s", times.len());
    for (t, p) in times.iter().take(8) {
        println!("{t:.4} {}", p.display());
    }
}
