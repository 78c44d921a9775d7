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

    /// Also print what the fetcher notices on stderr (-v: slow-downs, robots.txt problems,
    /// refused addresses; -vv: every retry and failed fetch). RUST_LOG, if set, decides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

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

    /// Feature model: classic, tag-pairs or class-paths (overrides fingerprint.features).
    #[arg(long, value_name = "MODEL")]
    pub features: Option<String>,
}

/// The drop policy of `replay` and `dedup`: which signal drops a page, and the content
/// threshold (default: for `replay` the ones the crawl recorded, for `dedup` the
/// configuration's dedup.drop-when and content.threshold).
#[derive(Clone, Debug, clap::Args)]
pub struct PolicyFlags {
    /// Which signal drops a page: structure, content, structure-and-content or
    /// structure-or-content.
    #[arg(long, value_name = "MODE")]
    pub drop_when: Option<String>,

    /// Bits within which content fingerprints count as the same: 0 to 8 for 64-bit content
    /// fingerprints (the default), 0 to 16 for 128-bit ones.
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub content_threshold: Option<i64>,
}

/// Output formats of `fingerprint`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `FINGERPRINT ELEMENTS PATH`, one page a line (`--content`: `FINGERPRINT ELEMENTS
    /// CONTENT_FINGERPRINT SIGNATURE PATH`, `-` for a page with too little text).
    #[default]
    Text,
    /// RFC 4180 CSV with the header `path,fingerprint,elements` (`--content`: then
    /// `content_fingerprint,signature`).
    Csv,
    /// One JSON object a line: path, fingerprint, elements, truncated, encoding (`--content`:
    /// content_fingerprint, signature, words).
    Json,
}

/// Output formats of `stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// A readable summary.
    #[default]
    Text,
    /// One JSON object.
    Json,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the structure fingerprint (--content: and the content fingerprint) of HTML files,
    /// pages at URLs, or text.
    ///
    /// PATH is a file, a directory (searched recursively for *.html and *.htm), `-` for
    /// standard input, or an `http://` or `https://` URL, fetched as the crawl fetches a page
    /// (robots.txt, the address policy, redirects checked, `[fetch]` settings). Files are
    /// fingerprinted in parallel; rows come out in input order. An unreadable file or a page
    /// that cannot be fetched is reported on stderr, the others still get their rows, and the
    /// exit status is 1.
    Fingerprint(FingerprintArgs),
    /// Crawl from seed URLs, dropping pages whose structure was already seen.
    ///
    /// SEEDS are URLs or files of URLs (one per line, `#` comments). On an existing state
    /// directory the crawl resumes where it stopped (SEEDS may then be left out); a state is
    /// refused if it was started from other seeds (unless --add-seeds) or with other
    /// settings that change decisions. A seed without a scheme that looks like a host
    /// (example.com) is crawled as http://.
    ///
    /// Politeness: robots.txt is obeyed and each host gets at most one request per second by
    /// default (fetch.request-interval-ms = 1000): 300 pages of one host take 5 minutes. On
    /// your own server, `--delay 0` crawls as fast as it answers.
    ///
    /// Output: STATE/pages.jsonl (or --output), and every decision in STATE/decisions.jsonl.
    /// Exit status: 0 when the crawl is done, 1 when some seeds were refused or could not be
    /// crawled (the summary names each with its reason), 2 on a usage, configuration or state
    /// error, 130 after Ctrl-C and 143 after SIGTERM (run the same command again to resume).
    Crawl(Box<CrawlArgs>),
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

        /// Bits within which two structures count as the same, 0 to 8 (overrides dedup.threshold).
        #[arg(long, value_name = "K")]
        threshold: Option<i64>,

        /// JSONL output file (default and `-`: standard output).
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,

        /// Write the kept records, and a revisit record for each exact duplicate, to a new
        /// WARC file in DIR.
        #[arg(long, value_name = "DIR")]
        warc_out: Option<PathBuf>,

        /// Keep the run's state in DIR: a killed run resumes where it stopped (same command,
        /// same output), and `stats`/`replay`/`report` read DIR as a crawl's state.
        #[arg(long, value_name = "DIR")]
        state: Option<PathBuf>,

        #[command(flatten)]
        policy: PolicyFlags,

        /// WARC files or directories of them.
        #[arg(value_name = "INPUT", required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Print the summary of a crawl state: decisions, hosts, errors, largest clusters.
    ///
    /// Every page's decision is also in STATE/decisions.jsonl.
    Stats {
        /// The state directory (default: crawl.state-dir of the config, `silhouette-state`,
        /// as for `crawl`), or --redis URL --crawl NAME for a shared crawl.
        state: Option<PathBuf>,

        #[command(flatten)]
        shared: crate::config::ClusterFlags,

        /// List every structure cluster with all its pages (decision, distance, URL).
        #[arg(long)]
        clusters: bool,

        /// Output format: text, or one JSON object (totals, hosts, errors, clusters).
        #[arg(long, value_enum, default_value_t)]
        format: StatsFormat,
    },
    /// Write every record of a shared crawl (--redis URL --crawl NAME) to a JSONL file,
    /// once each. Run again on the same file, only the records it lacks are appended.
    Export {
        #[command(flatten)]
        shared: crate::config::ClusterFlags,

        /// The JSONL file (created, or completed).
        #[arg(long, value_name = "FILE")]
        output: PathBuf,
    },
    /// Recompute every decision of a crawl offline at another decay and threshold, or another
    /// drop-when policy and content threshold (from the recorded content fingerprints).
    Replay {
        /// The state directory, or an export of a shared crawl (`export --redis`) (default:
        /// crawl.state-dir of the config, `silhouette-state`, as for `crawl`).
        state: Option<PathBuf>,

        /// Decay to replay with (default: the one the crawl used).
        #[arg(long, value_name = "D")]
        decay: Option<f64>,

        /// Threshold to replay with (default: the one the crawl used).
        #[arg(long, value_name = "K")]
        threshold: Option<i64>,

        /// Path-set similarity a near match must reach, 0 to 1 (class-paths crawls; default:
        /// the one the crawl used).
        #[arg(long, value_name = "T")]
        min_similarity: Option<f64>,

        /// Judge every page at these settings alone, as a new crawl would, instead of walking
        /// from the crawl's threshold and min-similarity one step at a time (where a looser
        /// setting keeps a subset of a stricter one's pages).
        #[arg(long)]
        from_scratch: bool,

        /// Say why the crawl kept or dropped the page at URL (as recorded): every kept page
        /// within the threshold when it was judged, how alike the two were and which paths
        /// were compared. With other settings, the page as a new crawl at them would judge it.
        #[arg(long, value_name = "URL")]
        why: Option<String>,

        #[command(flatten)]
        policy: PolicyFlags,
    },
    /// Write one self-contained HTML file (no network needed to view it) that shows what a
    /// crawl decided: totals, hosts, every structure cluster, the distance histogram with the
    /// threshold, a decay x threshold grid replayed offline, errors.
    Report {
        /// The state directory, or an export of a shared crawl (`export --redis`, with the
        /// `OUT.params.json` it writes beside it) (default: crawl.state-dir of the config,
        /// `silhouette-state`, as for `crawl`).
        state: Option<PathBuf>,

        /// The HTML file to write (default: STATE/report.html, or OUT.report.html beside an
        /// export; `-` for standard output).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
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
    /// Print the main-content text of HTML pages: the text `fingerprint --content` and the
    /// crawl's content signal read, to see what they compare.
    ///
    /// The main content is the first `<main>` or `[role=main]` element, else every outermost
    /// `<article>`, else `<body>` without its `nav`, `header`, `footer` and `aside`; script,
    /// style, template and noscript text is left out. Each block (paragraph, heading, list
    /// item, table cell…) is a line, its white space collapsed; the text stops where a content
    /// fingerprint stops reading (`[content] max-text-bytes`, 32 KiB by default). A file is an
    /// HTML page whatever its name but `*.txt` (plain text, printed as it is) and `*.warc`,
    /// `*.warc.gz` (every HTML page the archive holds, read as `dedup` reads them); `-` reads
    /// a page from standard input; an `http://` or `https://` URL is fetched as the crawl
    /// fetches a page (robots.txt, the address policy, redirects checked, `[fetch]`
    /// settings). With several pages, each comes after a `==> NAME <==`
    /// line (an archived page's name is its file, offset and URL). A page or record that
    /// cannot be read is reported and the others are printed (exit status 1).
    Text {
        /// Print the words the content signal cuts the text into instead (the `[content]`
        /// tokenizer: NFKC, lower case; stop words included), one a line.
        #[arg(long)]
        words: bool,

        /// HTML pages, WARC archives, URLs, or `-` for a page on standard input.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
    },
    /// Print the passages of text A copied in text B, with their word positions in both
    /// (robust winnowing: every copied passage of at least G words is found, none shorter
    /// than K).
    ///
    /// A and B are plain-text files, or HTML pages (`*.html`, `*.htm`): then their
    /// main-content text, the text `fingerprint --content` fingerprints. `-` reads plain text
    /// from standard input.
    Overlap {
        /// Noise threshold: shingles of K words.
        #[arg(long, value_name = "K", default_value_t = 5)]
        k: usize,

        /// Guarantee threshold: every passage of G words or more is found.
        #[arg(long, value_name = "G", default_value_t = 10)]
        g: usize,

        /// Tokenizer: mfonda, unicode, jieba or auto.
        #[arg(long, value_name = "NAME", default_value = "auto")]
        tokenizer: String,

        /// First text: a plain-text file, an HTML page, or `-` for standard input.
        a: PathBuf,
        /// Second text.
        b: PathBuf,
    },
    /// IDF tables for content fingerprints.
    Idf {
        #[command(subcommand)]
        command: IdfCommand,
    },
    /// Compare the structure and the content of two HTML pages (files or URLs).
    ///
    /// Prints both fingerprints, the distance and the verdict, and the distance of their
    /// content fingerprints. A page is a file, `-` (standard input) or an `http://` or
    /// `https://` URL, fetched as the crawl fetches a page (robots.txt, the address policy,
    /// redirects checked, `[fetch]` settings). Exit status, like cmp(1): 0 when the pages
    /// have the same structure (distance at most the threshold), 1 when they do not, 2 when a
    /// page cannot be read or fetched or a setting is wrong.
    Compare {
        #[command(flatten)]
        flags: FingerprintFlags,

        /// Bits within which two structures count as the same, 0 to 8 (overrides dedup.threshold).
        #[arg(long, value_name = "K")]
        threshold: Option<i64>,

        /// Also print the paths each page has and the other has not (`class-paths`): level,
        /// `P` for prose, and the path by its tags and classes, with the weight each side
        /// adds at the decay: where two pages differ, and what moves their fingerprints.
        #[arg(long)]
        paths: bool,

        /// First page: a file, `-` for standard input, or a URL.
        a: PathBuf,
        /// Second page.
        b: PathBuf,
    },
}

/// `silhouette fingerprint`'s arguments.
#[derive(Debug, clap::Args)]
pub struct FingerprintArgs {
    #[command(flatten)]
    pub flags: FingerprintFlags,

    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,

    /// Also print the content fingerprint of each page's main-content text and its
    /// semantic signature (two more columns before the path in text, `content_fingerprint`
    /// and `signature` in csv and json; `-` or empty when the page has too little text).
    /// Settings: `[content]` of the configuration.
    #[arg(long)]
    pub content: bool,

    /// Content fingerprint width: 64 or 128 (overrides content.bits; implies --content).
    #[arg(long, value_name = "BITS", value_parser = ["64", "128"])]
    pub bits: Option<String>,

    /// Take standard input (`-`) as plain text rather than HTML (`.txt` files always are).
    #[arg(long)]
    pub text: bool,

    /// Read more paths (or URLs) from FILE, one per line (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<PathBuf>,

    /// Files, directories, URLs, or `-` for standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// `silhouette crawl`'s arguments.
#[derive(Debug, clap::Args)]
pub struct CrawlArgs {
    #[command(flatten)]
    pub flags: FingerprintFlags,

    /// Bits within which two structures count as the same, 0 to 8 (overrides dedup.threshold).
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub threshold: Option<i64>,

    #[command(flatten)]
    pub settings: Box<crate::config::CrawlFlags>,

    /// State directory (default: crawl.state-dir of the config, `silhouette-state`).
    #[arg(long, value_name = "DIR")]
    pub state: Option<PathBuf>,

    /// JSONL output file (default: STATE/pages.jsonl; `-` for standard output).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Add SEEDS to a state that was started from other seeds (by default refused, so
    /// that two crawls are never merged by mistake).
    #[arg(long)]
    pub add_seeds: bool,

    #[command(flatten)]
    pub shared: crate::config::ClusterFlags,

    /// Seed URLs or seed files (optional when resuming).
    #[arg(value_name = "SEEDS")]
    pub seeds: Vec<String>,
}

#[derive(Debug, Subcommand)]
pub enum IdfCommand {
    /// Build an IDF table (`word idf` lines, jieba's idf.txt format) from a corpus: IDF =
    /// ln(N / (df + 1)) over its N documents.
    ///
    /// A plain-text file is one document; an HTML page (`*.html`, `*.htm`) is one, its
    /// main-content text (the text content fingerprints weigh); a WARC archive (`*.warc`,
    /// `*.warc.gz`: a crawl's `--warc` output, wget's…) is one per HTML page it holds (2xx
    /// responses). A crawl state directory is the WARC files its crawl wrote (`crawl --state
    /// STATE --warc DIR`). Any other directory is every `*.txt`, `*.html`, `*.htm`, `*.warc`
    /// and `*.warc.gz` file under it. Records or pages that cannot be read are reported and the table is
    /// built from the rest (exit status 1).
    Build {
        /// Tokenizer: mfonda, unicode, jieba or auto.
        #[arg(long, value_name = "NAME", default_value = "auto")]
        tokenizer: String,

        /// Output file (default: standard output).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,

        /// Files, directories or crawl states.
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<PathBuf>,
    },
}
