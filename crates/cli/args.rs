//! The command line.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// A polite web crawler that recognises pages by the shape of their DOM.
#[derive(Debug, Parser)]
#[command(name = "silhouette", version, about, propagate_version = true)]
pub struct Cli {
    /// Configuration file (default: $SILHOUETTE_CONFIG, else the built-in defaults).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

/// Settings shared by the commands that fingerprint pages.
#[derive(Debug, clap::Args)]
pub struct FingerprintFlags {
    /// Weight of each nesting level relative to its parent, in (0, 1] (overrides
    /// fingerprint.decay).
    #[arg(long, value_name = "D")]
    pub decay: Option<f64>,

    /// Feature model: classic or tag-pairs (overrides fingerprint.features).
    #[arg(long, value_name = "MODEL")]
    pub features: Option<String>,
}

/// Output formats of `fingerprint`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `FINGERPRINT ELEMENTS PATH`, one page a line.
    #[default]
    Text,
    /// RFC 4180 CSV with the header `path,fingerprint,elements`.
    Csv,
    /// One JSON object a line: path, fingerprint, elements, truncated, encoding.
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the structure fingerprint of HTML files.
    ///
    /// PATH is a file, a directory (searched recursively for *.html and *.htm) or `-` for
    /// standard input. Files are fingerprinted in parallel; rows come out in input order.
    /// An unreadable file is reported on stderr, the others still get their rows, and the
    /// exit status is 1.
    Fingerprint {
        #[command(flatten)]
        flags: FingerprintFlags,

        /// Output format.
        #[arg(long, value_enum, default_value_t)]
        format: Format,

        /// Read more paths from FILE, one per line (`-` for standard input).
        #[arg(long, value_name = "FILE")]
        files_from: Option<PathBuf>,

        /// Files, directories, or `-` for standard input.
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Crawl from seed URLs, dropping pages whose structure was already seen.
    ///
    /// SEEDS are URLs or files of URLs (one per line, `#` comments). On an existing state
    /// directory the crawl resumes where it stopped.
    Crawl {
        #[command(flatten)]
        flags: FingerprintFlags,

        /// Bits within which two structures count as the same (overrides dedup.threshold).
        #[arg(long, value_name = "K")]
        threshold: Option<i64>,

        /// State directory (default: crawl.state-dir of the config, `silhouette-state`).
        #[arg(long, value_name = "DIR")]
        state: Option<PathBuf>,

        /// JSONL output file (default: STATE/pages.jsonl; `-` for standard output).
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,

        /// Seed URLs or seed files.
        #[arg(value_name = "SEEDS", required = true)]
        seeds: Vec<String>,
    },
    /// Judge the HTML pages archived in WARC files as a crawl would judge them.
    ///
    /// INPUT is a WARC file (`.warc`, `.warc.gz`; any compression) or a directory searched
    /// recursively for them. Every `response` record with a 2xx HTML payload is
    /// fingerprinted and judged with the `[dedup]` settings, in input order: one JSONL line
    /// each (url, date, warc_file, warc_offset, status, fingerprint, decision, duplicate_of,
    /// distance). A broken record is reported on stderr, the rest is read, and the exit
    /// status is 1.
    Dedup {
        #[command(flatten)]
        flags: FingerprintFlags,

        /// Bits within which two structures count as the same (overrides dedup.threshold).
        #[arg(long, value_name = "K")]
        threshold: Option<i64>,

        /// JSONL output file (default and `-`: standard output).
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,

        /// Write the kept records, and a revisit record for each exact duplicate, to a new
        /// WARC file in DIR.
        #[arg(long, value_name = "DIR")]
        warc_out: Option<PathBuf>,

        /// WARC files or directories of them.
        #[arg(value_name = "INPUT", required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Print the summary of a crawl state: decisions, hosts, errors, largest clusters.
    Stats {
        /// The state directory.
        state: PathBuf,
    },
    /// Recompute every decision of a crawl offline at another decay and threshold.
    Replay {
        /// The state directory.
        state: PathBuf,

        /// Decay to replay with (default: fingerprint.decay of the config).
        #[arg(long, value_name = "D")]
        decay: Option<f64>,

        /// Threshold to replay with (default: dedup.threshold of the config).
        #[arg(long, value_name = "K")]
        threshold: Option<i64>,
    },
    /// Serve a built-in demo site on 127.0.0.1, crawl it and show what was kept.
    Demo {
        /// State directory (default: a fresh temporary one).
        #[arg(long, value_name = "DIR")]
        state: Option<PathBuf>,

        /// Only serve the demo site (until Ctrl-C), e.g. to crawl it with `silhouette crawl
        /// seeds/demo.txt` from another terminal.
        #[arg(long)]
        serve: bool,

        /// Port on 127.0.0.1 (default: any free port; seeds/demo.txt expects 8421).
        #[arg(long, value_name = "PORT")]
        port: Option<u16>,
    },
    /// Compare the structure of two HTML files.
    Compare {
        #[command(flatten)]
        flags: FingerprintFlags,

        /// Bits within which two structures count as the same (overrides dedup.threshold).
        #[arg(long, value_name = "K")]
        threshold: Option<i64>,

        /// First page (`-` for standard input).
        a: PathBuf,
        /// Second page.
        b: PathBuf,
    },
}
