//! `bastide-server`: the game server alone, as `bastide serve` runs it
//! (the tests start this binary to kill and restart it).

use std::process::ExitCode;

use clap::Parser;

/// Bastide's game server.
#[derive(Parser)]
#[command(name = "bastide-server", version)]
struct Cli {
    #[command(flatten)]
    args: bastide_server::ServeArgs,
}

fn main() -> ExitCode {
    match bastide_server::serve(Cli::parse().args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
