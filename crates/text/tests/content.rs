//! Golden, property and hostile-input tests of the public entry point.

use proptest::prelude::*;
use silhouette_text::{
    Bits, ContentConfig, ContentHash, ContentHasher, IdfTable, Mode, Tokenizer, Winnowing,
};

fn hasher(config: ContentConfig) -> ContentHasher {
    ContentHasher::new(config).expect("valid configuration")
}

fn check(config: ContentConfig, text: &str, expected: Option<&str>) {
    let h = hasher(config);
    let got = h.fingerprint(text).map(|f| f.hash.to_string());
    assert_eq!(got.as_deref(), expected, "{} on {text:?}", h.params());
}

#[test]
fn mfonda_reference() {
    check(
        ContentConfig::mfonda(),
        "this is a test phrase",
        Some("8c3a5f7e9ecb3f35"),
    );
    check(
        ContentConfig::mfonda(),
        "this is a test phrass",
        Some("8c3a5f7e9ecb3f21"),
    );
    check(ContentConfig::mfonda(), "foo bar", Some("d8dbe7186bad3db3"));
    check(ContentConfig::mfonda(), "", None);
    for text in ["A a a b, B. see http://x.y/z", "One\nline\nper\nblock"] {
        let got = hasher(ContentConfig::mfonda())
            .fingerprint(text)
            .map(|f| f.hash);
        let want = silhouette_text::text_simhash(text);
        assert_eq!(got, Some(ContentHash::Bits64(want)), "{text:?}");
    }
}

#[test]
fn seed002_reference() {
    let s64 = ContentConfig {
        bits: Bits::B64,
        ..ContentConfig::seed002()
    };
    check(
        ContentConfig::seed002(),
        "This is a test string for testing",
        Some("0000000020302202800d8e90e45cc488"),
    );
    check(
        ContentConfig::seed002(),
        "This is a string testing 11",
        Some("0000000020342200801d8ecea45cc9c8"),
    );
    check(
        ContentConfig::seed002(),
        "上海 北京 广州",
        Some("000000000000000023f8ff3cc59a946b"),
    );
    check(
        s64.clone(),
        "This is a test string for testing",
        Some("800d8e90e45cc488"),
    );
    check(s64, "This is a string testing 11", Some("801d8ecea45cc9c8"));
    check(ContentConfig::seed002(), " \n ", None);
}

#[test]
fn short_text_gets_nothing() {
    let h = hasher(ContentConfig::default());
    for text in [
        "",
        " ",
        "\n\n",
        "one two three",
        "the and of to a in",
        ".,;!? 。，！",
    ] {
        assert_eq!(h.fingerprint(text), None, "{text:?}");
    }
    // Words whose TF-IDF is all 0 (negative IDF) give no fingerprint either.
    let idf = IdfTable::parse("common -1\n").expect("valid");
    let h = hasher(ContentConfig {
        mode: Mode::Weighted,
        idf: Some(idf.into()),
        min_words: 1,
        ..ContentConfig::default()
    });
    assert_eq!(h.fingerprint("common common common"), None);
}

#[test]
fn bad_configurations_are_refused() {
    let cases = [
        (
            ContentConfig {
                shingles: 0,
                ..ContentConfig::default()
            },
            "shingles",
        ),
        (
            ContentConfig {
                shingles: 17,
                ..ContentConfig::default()
            },
            "shingles",
        ),
        (
            ContentConfig {
                top_n: Some(0),
                ..ContentConfig::default()
            },
            "top-n",
        ),
        (
            ContentConfig {
                min_words: 0,
                ..ContentConfig::default()
            },
            "min-words",
        ),
        (
            ContentConfig {
                signature_top_n: 5000,
                ..ContentConfig::default()
            },
            "signature-top-n",
        ),
        (
            ContentConfig {
                max_text_bytes: Some(0),
                ..ContentConfig::default()
            },
            "max-text-bytes",
        ),
    ];
    for (config, key) in cases {
        let err = ContentHasher::new(config).expect_err(key);
        assert!(err.to_string().contains(key), "{key}: {err}");
    }
}

#[test]
fn params_record_every_setting() {
    let h = hasher(ContentConfig::default());
    assert_eq!(
        h.params(),
        "text/1 mode=minhash tokenizer=auto shingles=2 stop-words=en+zh hash=mix64+splitmix64 \
         idf=jieba-rs-0.11 bits=64 min-words=30 signature=20 text-bytes=32768"
    );
    let weighted = hasher(ContentConfig {
        mode: Mode::Weighted,
        shingles: 1,
        ..ContentConfig::default()
    });
    assert_eq!(
        weighted.params(),
        "text/1 mode=weighted tokenizer=auto shingles=1 stop-words=en+zh weights=tf-idf top-n=all \
         hash=sip13 idf=jieba-rs-0.11 bits=64 min-words=30 signature=20 text-bytes=32768"
    );
    assert_eq!(
        hasher(ContentConfig::seed002()).params(),
        "text/1 mode=seed-002 bits=128 min-words=1 signature=0"
    );
}

/// A fingerprint reads the start of a long text only: the text beyond `max_text_bytes` changes
/// nothing, the text before it does, and a character at the cut is left out whole.
#[test]
fn long_text_is_read_to_the_bound() {
    let cap = 64;
    let h = hasher(ContentConfig {
        max_text_bytes: Some(cap),
        min_words: 5,
        ..ContentConfig::default()
    });
    let fp = |t: &str| h.fingerprint(t).map(|f| (f.hash, f.signature, f.words));
    let start = "the crawler keeps one page of each template and drops the others ";
    let start = &start[..cap];
    let long = format!(
        "{start}{}",
        "and then much more text after the bound ".repeat(50)
    );
    assert_eq!(fp(&long), fp(start));
    assert_ne!(fp(&long), fp(&long.replacen("crawler", "spider", 1)));
    // A two-byte character across the bound: cut before it, as if the text ended there.
    let cut = format!("{}é and more", &start[..cap - 1]);
    assert_eq!(fp(&cut), fp(&start[..cap - 1]));
    let all = hasher(ContentConfig {
        max_text_bytes: None,
        min_words: 5,
        ..ContentConfig::default()
    });
    assert_ne!(
        all.fingerprint(&long).map(|f| f.hash),
        fp(&long).map(|(h, _, _)| h)
    );
    assert!(!all.params().contains("text-bytes"));
}

/// The default (`minhash`, word 2-shingles) is pinned, and sees what word counts cannot: the
/// same sentences in another order are another text (the simhash of TF-IDF words is blind to it).
#[test]
fn minhash_default_pinned_and_order_sensitive() {
    let h = hasher(ContentConfig::default());
    let fp = |t: &str| h.fingerprint(t).expect("long enough");
    let a = fp(ARTICLE);
    assert_eq!(a.hash.to_string(), MINHASH_ARTICLE);
    let lines: Vec<&str> = ARTICLE.lines().collect();
    let shuffled: String = [4, 2, 0, 3, 1].map(|i| lines[i]).join(" ");
    let words_only = hasher(ContentConfig {
        mode: Mode::Weighted,
        shingles: 1,
        ..ContentConfig::default()
    });
    let w = |t: &str| words_only.fingerprint(t).expect("long enough").hash;
    assert_eq!(w(ARTICLE).distance(w(&shuffled)), Some(0));
    let d = a.hash.distance(fp(&shuffled).hash).expect("same width");
    assert!(d > 0, "reordered sentences: {d} bits");
    // Han text is shingled by characters: the same with jieba's words or UAX #29's characters.
    let chars = hasher(ContentConfig {
        tokenizer: Tokenizer::Unicode,
        ..ContentConfig::default()
    });
    assert_eq!(chars.fingerprint(ARTICLE).map(|f| f.hash), Some(a.hash));
}

const MINHASH_ARTICLE: &str = "514c0c535d531602";

const ARTICLE: &str = "Simhash maps a document to a short fingerprint.\n\
    Near-duplicate documents get fingerprints a few bits apart, so a crawler can drop mirrors,\n\
    print views and syndicated copies of an article it has already stored.\n\
    The weights come from TF-IDF: words frequent in the page but rare in the corpus count most.\n\
    网页去重是搜索引擎的重要环节，相似的网页只保留一份。";

#[test]
fn small_edits_stay_near() {
    for (bits, mode) in [
        (Bits::B64, Mode::Minhash),
        (Bits::B128, Mode::Minhash),
        (Bits::B64, Mode::Weighted),
        (Bits::B128, Mode::Weighted),
    ] {
        let h = hasher(ContentConfig {
            bits,
            mode,
            ..ContentConfig::default()
        });
        let a = h.fingerprint(ARTICLE).expect("long enough");
        let b = h
            .fingerprint(&ARTICLE.replace("mirrors", "mirror sites"))
            .expect("long enough");
        let d = a.hash.distance(b.hash).expect("same width");
        assert!(d <= bits.get() / 8, "{bits} {mode:?}: {d}");
        assert!(a.signature.is_some() && a.words >= 30);
    }
}

#[test]
fn winnowing_on_tokenized_text() {
    let w = Winnowing::new(4, 6).expect("valid");
    let a = Tokenizer::Auto.tokenize(ARTICLE);
    let copied = format!("Intro text here. {}", &ARTICLE[..120]);
    let b = Tokenizer::Auto.tokenize(&copied);
    let p = w.overlap(&a, &b);
    assert_eq!(p.len(), 1);
    assert_eq!((p[0].a, p[0].b), (0, 3));
    assert!(p[0].len >= 15, "{p:?}");
}

/// Hostile text: bounded work, never a panic, never an all-ones fingerprint of nothing.
#[test]
fn hostile_text() {
    let all = [
        ContentConfig::default(),
        ContentConfig {
            bits: Bits::B128,
            shingles: 3,
            top_n: Some(20),
            ..ContentConfig::default()
        },
        ContentConfig::mfonda(),
        ContentConfig::seed002(),
    ];
    let one_word = "word ".repeat(4 << 20); // 20 MB
    let distinct: String = (0..1_000_000u32).map(|i| format!("w{i:x} ")).collect();
    let garbage: String = (0..200_000u32)
        .map(|i| char::from_u32(i.wrapping_mul(2_654_435_761) % 0x11_0000).unwrap_or('\u{fffd}'))
        .collect();
    let mixed = "English текст 中文网页 العربية 日本語 한국어 🙂 e\u{301} ".repeat(2000);
    let w = Winnowing::new(5, 10).expect("valid");
    for config in all {
        let h = hasher(config);
        for text in [&one_word, &distinct, &garbage, &mixed] {
            let fp = h.fingerprint(text);
            if let Some(fp) = fp {
                assert_eq!(fp, h.fingerprint(text).expect("deterministic"));
            }
        }
        assert_eq!(h.fingerprint(""), None, "{}", h.params());
    }
    let words = Tokenizer::Unicode.tokenize(&one_word);
    assert_eq!(words.len(), 4 << 20);
    let passages = w.overlap(&words, &words);
    assert_eq!(passages.len(), 1, "one word repeated: one passage");
    assert_eq!(passages[0].len, words.len());
    let g = Tokenizer::Auto.tokenize(&garbage);
    assert!(w.overlap(&g, &g).iter().map(|p| p.len).sum::<usize>() <= g.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn deterministic_and_symmetric(a in "[a-z 中文网页\n]{0,400}", b in "[a-z 中文网页\n]{0,400}") {
        for bits in [Bits::B64, Bits::B128] {
            let h = hasher(ContentConfig { bits, min_words: 1, ..ContentConfig::default() });
            let (fa, fb) = (h.fingerprint(&a), h.fingerprint(&b));
            prop_assert_eq!(fa, h.fingerprint(&a));
            if let (Some(x), Some(y)) = (fa, fb) {
                prop_assert_eq!(x.hash.distance(y.hash), y.hash.distance(x.hash));
                prop_assert_eq!(x.hash.distance(x.hash), Some(0));
                prop_assert_eq!(x.hash.to_string().len(), bits.get() as usize / 4);
                prop_assert_eq!(x.hash.to_string().parse::<ContentHash>(), Ok(x.hash));
            }
        }
    }

    /// The fingerprint counts words as the tokenizer hands them over, stop words marked once
    /// per distinct word: its word count and signature are those of the plain word list
    /// (`words()`, stop words dropped) and `signature()`, with and without stop words, with
    /// Han text (copied words) and without (words in place; U+2F00 becomes Han only in NFKC).
    #[test]
    fn counted_as_they_come(
        text in "((the|of|a|is|and|crawler|crawlers|page|pages|web|x|y_z|1,000|can't|’s|网页|去重|的|\u{2f00})[ \n.,]{1,2}){0,120}",
        stop_words in any::<bool>(),
        n in 1usize..25,
    ) {
        let h = hasher(ContentConfig {
            min_words: 1,
            stop_words,
            signature_top_n: n,
            ..ContentConfig::default()
        });
        let words = h.words(&text);
        let want = silhouette_text::signature(&words, &IdfTable::jieba(), n);
        match h.fingerprint(&text) {
            Some(f) => {
                prop_assert_eq!(f.words, words.len());
                prop_assert_eq!(f.signature, want);
            }
            None => prop_assert!(words.is_empty()),
        }
    }

    #[test]
    fn overlap_positions_point_at_equal_words(a in "[abc ]{0,200}", b in "[abc ]{0,200}") {
        let w = Winnowing::new(2, 4).expect("valid");
        let (x, y) = (Tokenizer::Unicode.tokenize(&a), Tokenizer::Unicode.tokenize(&b));
        for p in w.overlap(&x, &y) {
            prop_assert!(p.len >= 2);
            prop_assert_eq!(&x[p.a..p.a + p.len], &y[p.b..p.b + p.len]);
        }
    }
}
