mod cli;

use clap::Parser;

fn main() {
    let parsed = cli::Cli::parse();
    let code = match cli::run(parsed) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("quandary: error: {e}");
            2
        }
    };
    std::process::exit(code);
}
