//! The `silhouette` binary: the only place that reads files and the environment and prints.

mod args;
mod compare;
#[path = "demo/site.rs"]
mod demo_site;
mod fingerprint;
mod inputs;
mod settings;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;
use silhouette_dom::StructureHasher;

use crate::args::{Cli, Command, FingerprintFlags};
use crate::inputs::Input;
use crate::settings::{Overrides, Settings};

/// Exit status when some inputs failed and the rest were processed.
const EXIT_PARTIAL: u8 = 1;
/// Exit status for a usage or configuration error (clap uses 2 as well).
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            // One line per error: the chain joined, most general first.
            let msg = e
                .chain()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(": ");
            let _ = writeln!(io::stderr().lock(), "error: {msg}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

fn settings(
    cli_config: Option<&std::path::Path>,
    flags: &FingerprintFlags,
    threshold: Option<i64>,
) -> Result<Settings> {
    let overrides = Overrides {
        decay: flags.decay,
        features: flags.features.clone(),
        threshold,
    };
    Settings::load(cli_config, &overrides)
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Fingerprint {
            flags,
            format,
            files_from,
            paths,
        } => {
            let settings = settings(cli.config.as_deref(), &flags, None)?;
            let hasher = StructureHasher::new(settings.hasher)?;
            let mut inputs = Vec::new();
            let mut warnings = Vec::new();
            for path in &paths {
                inputs::expand(path, &mut inputs, &mut warnings);
            }
            if let Some(list) = &files_from {
                inputs.extend(inputs::read_list(list)?);
            }
            if paths.is_empty() && files_from.is_none() {
                anyhow::bail!(
                    "nothing to fingerprint: give PATH arguments, `-` for standard input, or --files-from LIST"
                );
            }
            let stdout = io::stdout();
            let mut out = io::BufWriter::new(stdout.lock());
            let stderr = io::stderr();
            let mut err = stderr.lock();
            for w in &warnings {
                writeln!(err, "error: {w}")?;
            }
            let failed = fingerprint::run(&hasher, &inputs, format, &mut out, &mut err)
                .context("cannot write the output")?;
            out.flush().context("cannot write the output")?;
            Ok(if failed > 0 || !warnings.is_empty() {
                ExitCode::from(EXIT_PARTIAL)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Compare {
            flags,
            threshold,
            a,
            b,
        } => {
            let settings = settings(cli.config.as_deref(), &flags, threshold)?;
            let hasher = StructureHasher::new(settings.hasher)?;
            let to_input = |p: std::path::PathBuf| {
                if p.as_os_str() == "-" {
                    Input::Stdin
                } else {
                    Input::File(p)
                }
            };
            let mut out = io::stdout().lock();
            compare::run(
                &hasher,
                settings.threshold,
                &to_input(a),
                &to_input(b),
                &mut out,
            )?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
