//! Records the cargo features this binary is built with, for `nqueens --version`.

fn main() {
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(key, _)| key.strip_prefix("CARGO_FEATURE_").map(str::to_string))
        .map(|name| name.to_lowercase().replace('_', "-"))
        .collect();
    features.sort();
    let list = if features.is_empty() {
        "none".to_string()
    } else {
        features.join(", ")
    };
    println!("cargo:rustc-env=NQUEENS_FEATURES={list}");
}
