//! Sitemaps for the silhouette crawler: which URLs a site lists, read without IO.
//!
//! - [`robots_sitemaps`]: the `Sitemap:` lines of a robots.txt.
//! - [`parse()`]: a sitemap (`<urlset>`) or a sitemap index (`<sitemapindex>`), plain or gzip'd,
//!   into a [`Sitemap`]: its kind and its `<loc>` values, entities decoded. Decompression
//!   stops at a byte limit ([`SitemapError::TooLarge`]), so a gzip bomb costs nothing.
//!
//! The XML is read by a small `<loc>` extractor, not a full XML parser: sitemaps are flat
//! lists, and everything but the root element's name and the `<loc>` texts is ignored.
//! Fetching (robots.txt, `/sitemap.xml`, the sitemaps an index names) is the caller's job.
//!
//! ```
//! use silhouette_sitemap::{Kind, parse, robots_sitemaps};
//!
//! let robots = "User-agent: *\nDisallow: /tmp/\nSitemap: https://example.com/sitemap.xml\n";
//! assert_eq!(robots_sitemaps(robots), ["https://example.com/sitemap.xml"]);
//!
//! let xml = br#"<?xml version="1.0" encoding="UTF-8"?>
//! <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
//!   <url><loc>https://example.com/a?x=1&amp;y=2</loc><lastmod>2024-01-01</lastmod></url>
//!   <url><loc> https://example.com/b </loc></url>
//! </urlset>"#;
//! let sitemap = parse(xml, 1 << 20)?;
//! assert_eq!(sitemap.kind, Kind::UrlSet);
//! assert_eq!(sitemap.locs, ["https://example.com/a?x=1&y=2", "https://example.com/b"]);
//! # Ok::<(), silhouette_sitemap::SitemapError>(())
//! ```
#![deny(missing_docs)]

mod parse;

pub use parse::{Kind, Sitemap, SitemapError, parse, robots_sitemaps};
