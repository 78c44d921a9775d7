//! The connection: one Redis server (a `ConnectionManager`, which reconnects) or a Redis
//! Cluster, behind one type that retries a command while Redis is briefly away (a restart).

use std::time::Duration;

use redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use redis::cluster_async::ClusterConnection;
use redis::{Cmd, Pipeline, RedisError, RedisFuture, Value};

use crate::SharedError;

/// How long a command is retried while Redis cannot be reached, in all.
const RETRY_FOR: Duration = Duration::from_secs(60);
/// How long connecting may take at start.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// A connection to the crawl's Redis (cheap to clone: connections are multiplexed).
#[derive(Clone)]
pub struct Conn {
    inner: Inner,
}

#[derive(Clone)]
enum Inner {
    Single(ConnectionManager),
    Cluster(ClusterConnection),
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.inner {
            Inner::Single(_) => "Conn(single)",
            Inner::Cluster(_) => "Conn(cluster)",
        })
    }
}

/// `url` without its password, for messages.
fn shown(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_owned(),
    }
}

impl Conn {
    /// Connects to `redis://HOST:PORT/DB` or a cluster, `redis+cluster://HOST:PORT,HOST:PORT`
    /// (any of its masters). Fails within a few seconds when Redis cannot be reached.
    ///
    /// # Errors
    /// [`SharedError::Url`], [`SharedError::Connect`].
    pub async fn connect(url: &str) -> Result<Self, SharedError> {
        let fail = |detail: String| SharedError::Connect {
            url: shown(url),
            detail,
        };
        let inner = if let Some(nodes) = url.strip_prefix("redis+cluster://") {
            let nodes: Vec<String> = nodes
                .trim_end_matches('/')
                .split(',')
                .map(|n| format!("redis://{n}"))
                .collect();
            let client = redis::cluster::ClusterClientBuilder::new(nodes)
                .connection_timeout(CONNECT_TIMEOUT)
                .response_timeout(Duration::from_secs(30))
                .retries(2)
                .build()
                .map_err(|source| SharedError::Url {
                    url: shown(url),
                    source,
                })?;
            let connecting = client.get_async_connection();
            match tokio::time::timeout(CONNECT_TIMEOUT * 3, connecting).await {
                Ok(Ok(c)) => Inner::Cluster(c),
                Ok(Err(e)) => return Err(fail(e.to_string())),
                Err(_) => return Err(fail("no answer".to_owned())),
            }
        } else {
            let client = redis::Client::open(url).map_err(|source| SharedError::Url {
                url: shown(url),
                source,
            })?;
            let config = ConnectionManagerConfig::new()
                .set_connection_timeout(Some(CONNECT_TIMEOUT))
                .set_response_timeout(Some(Duration::from_secs(30)))
                .set_number_of_retries(1);
            let connecting = ConnectionManager::new_with_config(client, config);
            match tokio::time::timeout(CONNECT_TIMEOUT * 3, connecting).await {
                Ok(Ok(c)) => Inner::Single(c),
                Ok(Err(e)) => return Err(fail(e.to_string())),
                Err(_) => return Err(fail("no answer".to_owned())),
            }
        };
        let mut conn = Self { inner };
        let pong: String = redis::cmd("PING")
            .query_async(&mut conn)
            .await
            .map_err(|e| fail(e.to_string()))?;
        if pong != "PONG" {
            return Err(fail(format!("PING answered {pong:?}")));
        }
        Ok(conn)
    }
}

/// Errors worth retrying: the connection dropped or was refused (a restart), a cluster
/// moving slots, Redis still loading its data.
fn transient(e: &RedisError) -> bool {
    e.is_io_error()
        || e.is_connection_dropped()
        || e.is_connection_refusal()
        || e.is_timeout()
        || matches!(
            e.kind(),
            redis::ErrorKind::Server(
                redis::ServerErrorKind::BusyLoading
                    | redis::ServerErrorKind::TryAgain
                    | redis::ServerErrorKind::ClusterDown
                    | redis::ServerErrorKind::Moved
                    | redis::ServerErrorKind::Ask
            )
        )
}

async fn retrying<'a, T, F>(mut attempt: F) -> Result<T, RedisError>
where
    F: FnMut() -> RedisFuture<'a, T>,
{
    let start = tokio::time::Instant::now();
    let mut pause = Duration::from_millis(50);
    loop {
        match attempt().await {
            Err(e) if transient(&e) && start.elapsed() < RETRY_FOR => {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(1));
            }
            done => return done,
        }
    }
}

impl ConnectionLike for Conn {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        Box::pin(async move {
            match &self.inner {
                Inner::Single(c) => {
                    retrying(|| {
                        let mut c = c.clone();
                        Box::pin(async move { c.req_packed_command(cmd).await })
                    })
                    .await
                }
                Inner::Cluster(c) => {
                    retrying(|| {
                        let mut c = c.clone();
                        Box::pin(async move { c.req_packed_command(cmd).await })
                    })
                    .await
                }
            }
        })
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        pipeline: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        Box::pin(async move {
            match &self.inner {
                Inner::Single(c) => {
                    retrying(|| {
                        let mut c = c.clone();
                        Box::pin(
                            async move { c.req_packed_commands(pipeline, offset, count).await },
                        )
                    })
                    .await
                }
                Inner::Cluster(c) => {
                    retrying(|| {
                        let mut c = c.clone();
                        Box::pin(
                            async move { c.req_packed_commands(pipeline, offset, count).await },
                        )
                    })
                    .await
                }
            }
        })
    }

    fn get_db(&self) -> i64 {
        match &self.inner {
            Inner::Single(c) => c.get_db(),
            Inner::Cluster(c) => c.get_db(),
        }
    }
}
