//! The TLS set-up of the HTTP client: the platform's root certificates, read when the first
//! certificate has to be checked rather than when the client is built.
//!
//! `rustls-platform-verifier` reads and parses every certificate of the system store as it
//! is made (on Debian: the bundle plus ~150 files, 0.1-0.2 s). reqwest makes it when the
//! client is built, so every crawl paid that before its first request, even a crawl of plain
//! `http://` pages. Here the verifier is made on the first certificate to check; signature
//! checks and the list of schemes need no roots.

use std::sync::{Arc, OnceLock};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

/// A [`ServerCertVerifier`] that builds the platform verifier on first use.
#[derive(Debug)]
pub(crate) struct LazyVerifier {
    provider: Arc<CryptoProvider>,
    inner: OnceLock<Result<rustls_platform_verifier::Verifier, String>>,
}

impl LazyVerifier {
    pub(crate) fn new(provider: Arc<CryptoProvider>) -> Self {
        Self {
            provider,
            inner: OnceLock::new(),
        }
    }

    fn verifier(&self) -> Result<&rustls_platform_verifier::Verifier, rustls::Error> {
        self.inner
            .get_or_init(|| {
                rustls_platform_verifier::Verifier::new(Arc::clone(&self.provider))
                    .map_err(|e| format!("cannot load the system's root certificates: {e}"))
            })
            .as_ref()
            .map_err(|e| rustls::Error::General(e.clone()))
    }

    /// Whether the root certificates were read.
    #[cfg(test)]
    fn loaded(&self) -> bool {
        self.inner.get().is_some()
    }
}

impl ServerCertVerifier for LazyVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        self.verifier()?.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        )
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// The client's TLS configuration: TLS 1.2 and 1.3 with aws-lc-rs (reqwest's own default),
/// the lazy platform verifier, ALPN for HTTP/2 and HTTP/1.1 (what reqwest sets itself when
/// it builds the configuration).
pub(crate) fn client_config() -> Result<rustls::ClientConfig, rustls::Error> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(LazyVerifier::new(provider)))
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_are_read_on_the_first_certificate_only() {
        let v = LazyVerifier::new(Arc::new(rustls::crypto::aws_lc_rs::default_provider()));
        assert!(!v.supported_verify_schemes().is_empty());
        assert!(!v.loaded(), "listing schemes needs no roots");
        let name = ServerName::try_from("example.test").expect("a name");
        let junk = CertificateDer::from(vec![0x30, 0x03, 0x02, 0x01, 0x00]);
        let verdict = v.verify_server_cert(&junk, &[], &name, &[], UnixTime::now());
        assert!(verdict.is_err(), "a junk certificate is refused");
        assert!(v.loaded());
    }

    #[test]
    fn config_offers_h2_and_http1() {
        let config = client_config().expect("valid");
        assert_eq!(
            config.alpn_protocols,
            [b"h2".to_vec(), b"http/1.1".to_vec()]
        );
    }
}
