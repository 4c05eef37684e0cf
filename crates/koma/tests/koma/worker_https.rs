//! `koma worker` over HTTPS, as an operator deploys it: `koma serve
//! --listen 127.0.0.1` behind a proxy that adds TLS with a certificate a
//! private authority signed (made here with rcgen; the proxy is a few
//! lines of tokio-rustls that pass the bytes on, as Caddy passes the
//! visitor's Host on). A worker given the authority (`--ca-file`) reviews
//! the board's game through the proxy; one without it is refused by TLS
//! and says why; and the server answers the proxy's name only once told
//! it (`--host`).

use crate::common::scratch;
use crate::serve_client::{receive, start_with, Server};
use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use serde_json::{json, Value};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::{crypto::ring, ServerConfig};

type Socket = tungstenite::WebSocket<TcpStream>;

const KEY: &str = "https-test-key-0123456789";

/// A private authority's certificate (PEM) and a server certificate for
/// 127.0.0.1 and localhost that it signed, with its key.
fn authority_and_server() -> (String, CertificateDer<'static>, PrivateKeyDer<'static>) {
    let authority_key = KeyPair::generate().unwrap();
    let mut authority = CertificateParams::new(Vec::<String>::new()).unwrap();
    authority.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let authority_pem = authority.self_signed(&authority_key).unwrap().pem();
    let issuer = Issuer::new(authority, authority_key);
    let server_key = KeyPair::generate().unwrap();
    let names = vec!["127.0.0.1".to_owned(), "localhost".to_owned()];
    let server = CertificateParams::new(names)
        .unwrap()
        .signed_by(&server_key, &issuer)
        .unwrap();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(server_key.serialize_der()));
    (authority_pem, server.der().clone(), key)
}

/// A TLS proxy on a port of its own (returned) that passes every
/// connection on to `upstream()`, on a thread of its own for the test's
/// life.
fn tls_proxy(
    certificate: CertificateDer<'static>,
    key: PrivateKeyDer<'static>,
    upstream: std::sync::mpsc::Receiver<String>,
) -> u16 {
    let config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![certificate], key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let target = upstream.recv().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            listener.set_nonblocking(true).unwrap();
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                let (acceptor, target) = (acceptor.clone(), target.clone());
                tokio::spawn(async move {
                    // A handshake the worker refuses ends here.
                    let Ok(mut secure) = acceptor.accept(client).await else {
                        return;
                    };
                    if let Ok(mut server) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut secure, &mut server).await;
                    }
                });
            }
        });
    });
    port
}

fn worker(port: u16, key_file: &str, authority: Option<&str>) -> Child {
    let server = format!("https://127.0.0.1:{port}/");
    let mut args = vec!["worker", "--server", &server, "--key-file", key_file];
    if let Some(authority) = authority {
        args.extend(["--ca-file", authority]);
    }
    Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("koma worker starts")
}

/// Stops `child` as Ctrl-C does and returns what it said.
fn stop(child: Child) -> String {
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let output = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn next_review(socket: &mut Socket) -> Value {
    loop {
        let message = receive(socket);
        if message["type"] == "review" {
            return message;
        }
    }
}

/// A koma serve taking workers, none of its own, behind the proxy.
fn serve(keys: &str, proxy_port: Option<u16>) -> Server {
    let host = proxy_port.map(|port| format!("127.0.0.1:{port}"));
    let mut flags = vec![
        "--memory",
        "--worker-keys",
        keys,
        "--analysis-engines",
        "0",
        "--review-nodes",
        "2000",
    ];
    if let Some(host) = &host {
        flags.extend(["--host", host]);
    }
    start_with(&flags)
}

#[test]
fn a_koma_worker_reviews_through_an_https_proxy_with_a_private_authority() {
    let keys = scratch("https-keys");
    std::fs::write(&keys, format!("tester {KEY}\n")).unwrap();
    let key_file = scratch("https-key");
    std::fs::write(&key_file, format!("{KEY}\n")).unwrap();
    let (authority_pem, certificate, key) = authority_and_server();
    let authority = scratch("https-authority.pem");
    std::fs::write(&authority, &authority_pem).unwrap();
    let (upstream, told) = std::sync::mpsc::channel();
    let port = tls_proxy(certificate.clone(), key.clone_key(), told);
    let server = serve(&keys, Some(port));
    upstream.send(server.address.clone()).unwrap();

    let id = server.create("shogi")["id"].as_str().unwrap().to_owned();
    server.play(&id, 0, &["7g7f", "3c3d"]);
    let mut socket = server.websocket(&id);
    socket
        .send(tungstenite::Message::text(
            json!({ "type": "review" }).to_string(),
        ))
        .unwrap();
    assert_eq!(next_review(&mut socket)["status"], "waiting");

    // Without the authority, TLS refuses the proxy's certificate, and the
    // worker says so as it tries again.
    let refused = worker(port, &key_file, None);
    std::thread::sleep(Duration::from_secs(2));
    let said = stop(refused);
    assert!(said.contains("invalid peer certificate"), "{said}");

    let child = worker(port, &key_file, Some(&authority));
    let started = Instant::now();
    loop {
        let message = next_review(&mut socket);
        assert_ne!(message["status"], "failed", "{message}");
        if message["status"] == "done" {
            assert_eq!(message["done"], 3);
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "no review");
    }
    let said = stop(child);
    assert!(said.contains("1 jobs done"), "{said}");

    // A server not told the proxy's name refuses it (421), and the worker
    // says what the server said.
    let (upstream, told) = std::sync::mpsc::channel();
    let other_port = tls_proxy(certificate, key, told);
    let unnamed = serve(&keys, None);
    upstream.send(unnamed.address.clone()).unwrap();
    let misdirected = worker(other_port, &key_file, Some(&authority));
    std::thread::sleep(Duration::from_secs(2));
    let said = stop(misdirected);
    assert!(said.contains("421"), "{said}");
}
