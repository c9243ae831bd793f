use crate::codec::*;
use crate::endpoint::Endpoint;
use crate::error::ZmqResult;
use crate::message::*;
use crate::transport::AcceptStopHandle;
use crate::util::PeerIdentity;
use crate::write_queue::write_message_queue;
use crate::{async_rt, CaptureSocket, SocketOptions};
use crate::{MultiPeerBackend, Socket, SocketBackend, SocketEvent, SocketSend, SocketType};

use async_trait::async_trait;
use bytes::Bytes;
use futures::channel::{mpsc, oneshot};
use futures::{select, FutureExt, StreamExt};
use parking_lot::Mutex;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

// tensh's patch: libzmq's default high-water mark (ZMQ_SNDHWM), 1000 messages per queue; the
// published crate kept 100,000, which with 100 KB messages is 10 GB per subscriber.
const PUB_SEND_QUEUE_CAPACITY: usize = 1000;
type PubSendQueue = mpsc::Sender<Message>;

fn subscription_matches(subscriptions: &[Vec<u8>], first_frame: &Bytes) -> bool {
    // Single-subscription PUB fanout is common, so keep its comparison shape unchanged.
    // Only use first-byte filtering for multiple subscriptions, where it avoids extra scans.
    if subscriptions.len() <= 1 {
        return subscriptions.iter().any(|sub_filter| {
            sub_filter.len() <= first_frame.len()
                && sub_filter.as_slice() == &first_frame[0..sub_filter.len()]
        });
    }

    let first_byte = first_frame.first().copied();
    subscriptions
        .iter()
        .any(|sub_filter| match sub_filter.first().copied() {
            Some(prefix_first) if Some(prefix_first) != first_byte => false,
            _ => {
                sub_filter.len() <= first_frame.len()
                    && sub_filter.as_slice() == &first_frame[0..sub_filter.len()]
            }
        })
}

// tensh's patch: how long a publish waits for room in a subscriber's full queue before that
// subscriber counts as stalled (one that reads slowly receives everything; one that stopped
// reading has its messages dropped, as libzmq drops them at the high-water mark).
const STALL_AFTER: std::time::Duration = std::time::Duration::from_secs(5);
// How often a waiting publish looks for room again.
const ROOM_POLL: std::time::Duration = std::time::Duration::from_millis(1);

// What offering a message to one subscriber came to.
enum Offered {
    Queued,
    Full,
    Gone,
}

// tensh's patch: the subscriber's own sender, not a clone: a futures channel gives every
// sender one slot beyond its capacity, so sending through a fresh clone per message never
// found the queue full and the queue grew without bound.
fn offer(subscriber: &mut Subscriber, message: &ZmqMessage) -> Offered {
    match subscriber
        .send_queue
        .try_send(Message::Message(message.clone()))
    {
        Ok(()) => {
            subscriber.stalled = false;
            Offered::Queued
        }
        Err(error) if error.is_full() => Offered::Full,
        // The writer task owns transport error detection and subscriber cleanup.
        Err(_) => Offered::Gone,
    }
}

pub(crate) struct Subscriber {
    pub(crate) subscriptions: Vec<Vec<u8>>,
    pub(crate) send_queue: PubSendQueue,
    // tensh's patch: whether this subscriber's queue stayed full for `STALL_AFTER`; its
    // messages are dropped while its queue is full, until it takes one again.
    pub(crate) stalled: bool,
    pub(crate) _subscription_coro_stop: oneshot::Sender<()>,
}

pub(crate) struct PubSocketBackend {
    pub(crate) subscribers: scc::HashMap<PeerIdentity, Subscriber>,
    pub(crate) subscriber_count: AtomicUsize,
    pub(crate) socket_monitor: Mutex<Option<mpsc::Sender<SocketEvent>>>,
    pub(crate) socket_options: Arc<SocketOptions>,
}

impl PubSocketBackend {
    // tensh's patch: a publish waits while a matching subscriber's queue is full (polling,
    // with no lock held across the wait, so the writer tasks can remove a subscriber that
    // disconnects), so a subscriber that reads receives every message and memory stays at
    // the high-water mark; a subscriber full for `STALL_AFTER` is skipped instead.
    pub(crate) async fn fanout_message(&self, message: ZmqMessage) {
        let first_frame = match message.get(0) {
            Some(frame) => frame,
            None => return,
        };

        let mut waiting = Vec::new();
        let mut iter = self.subscribers.begin_async().await;
        while let Some(mut subscriber) = iter {
            if subscription_matches(&subscriber.subscriptions, first_frame)
                && matches!(offer(&mut subscriber, &message), Offered::Full)
                && !subscriber.stalled
            {
                waiting.push(subscriber.key().clone());
            }
            iter = subscriber.next_async().await;
        }

        for peer_id in waiting {
            let since = std::time::Instant::now();
            loop {
                async_rt::task::sleep(ROOM_POLL).await;
                let Some(mut subscriber) = self.subscribers.get_async(&peer_id).await else {
                    break;
                };
                match offer(&mut subscriber, &message) {
                    Offered::Queued | Offered::Gone => break,
                    Offered::Full if since.elapsed() >= STALL_AFTER => {
                        subscriber.stalled = true;
                        break;
                    }
                    Offered::Full => {}
                }
            }
        }
    }

    fn message_received(&self, peer_id: &PeerIdentity, message: Message) {
        let data = match message {
            Message::Message(m) => {
                if m.len() != 1 {
                    log::warn!("Received message with unexpected length: {}", m.len());
                    return;
                }
                m.into_vec().pop().unwrap_or_default()
            }
            _ => return,
        };

        if data.is_empty() {
            return;
        }

        match data.first() {
            Some(1) => {
                // Subscribe
                if let Some(mut entry) = self.subscribers.get_sync(peer_id) {
                    entry.subscriptions.push(Vec::from(&data[1..]));
                }
            }
            Some(0) => {
                // Unsubscribe
                let sub = Vec::from(&data[1..]);
                if let Some(mut entry) = self.subscribers.get_sync(peer_id) {
                    if let Some(index) = entry.subscriptions.iter().position(|s| s == &sub) {
                        entry.subscriptions.remove(index);
                    }
                }
            }
            _ => log::warn!(
                "Received message with unexpected first byte: {:?}",
                data.first()
            ),
        }
    }
}

impl SocketBackend for PubSocketBackend {
    fn socket_type(&self) -> SocketType {
        SocketType::PUB
    }

    fn socket_options(&self) -> &Arc<SocketOptions> {
        &self.socket_options
    }

    fn shutdown(&self) {
        self.subscribers.clear_sync();
        self.subscriber_count.store(0, Ordering::Relaxed);
    }

    fn monitor(&self) -> &Mutex<Option<mpsc::Sender<SocketEvent>>> {
        &self.socket_monitor
    }
}

#[async_trait]
impl MultiPeerBackend for PubSocketBackend {
    async fn peer_connected(self: Arc<Self>, peer_id: &PeerIdentity, io: FramedIo) {
        let (mut recv_queue, send_queue) = io.into_parts();
        // TODO provide handling for recv_queue
        let (queue_sender, queue_receiver) = mpsc::channel(PUB_SEND_QUEUE_CAPACITY);
        let (sender, stop_receiver) = oneshot::channel();
        let old_subscriber = self
            .subscribers
            .upsert_async(
                peer_id.clone(),
                Subscriber {
                    subscriptions: vec![],
                    send_queue: queue_sender,
                    stalled: false,
                    _subscription_coro_stop: sender,
                },
            )
            .await;
        if old_subscriber.is_none() {
            self.subscriber_count.fetch_add(1, Ordering::Relaxed);
        }
        let writer_backend = self.clone();
        let writer_peer_id = peer_id.clone();
        async_rt::task::spawn(async move {
            if let Err(error) = write_message_queue(queue_receiver, send_queue).await {
                log::debug!(
                    "Error sending message to subscriber {:?}: {:?}",
                    writer_peer_id,
                    error
                );
                writer_backend.peer_disconnected(&writer_peer_id);
            }
        });
        let backend = self;
        let peer_id = peer_id.clone();
        async_rt::task::spawn(async move {
            let mut stop_receiver = stop_receiver.fuse();
            loop {
                select! {
                     _ = stop_receiver => {
                         break;
                     },
                     message = recv_queue.next().fuse() => {
                        match message {
                            Some(Ok(m)) => backend.message_received(&peer_id, m),
                            Some(Err(e)) => {
                                log::debug!("Error receiving message: {:?}", e);
                                backend.peer_disconnected(&peer_id);
                                break;
                            }
                            None => {
                                backend.peer_disconnected(&peer_id);
                                break
                            }
                        }

                     }
                }
            }
        });
    }

    fn peer_disconnected(&self, peer_id: &PeerIdentity) {
        log::info!("Client disconnected {:?}", peer_id);
        if let Some(monitor) = self.monitor().lock().as_mut() {
            let _ = monitor.try_send(SocketEvent::Disconnected(peer_id.clone()));
        }
        if self.subscribers.remove_sync(peer_id).is_some() {
            self.subscriber_count.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

pub struct PubSocket {
    pub(crate) backend: Arc<PubSocketBackend>,
    binds: HashMap<Endpoint, AcceptStopHandle>,
}

impl Drop for PubSocket {
    fn drop(&mut self) {
        self.backend.shutdown();
    }
}

#[async_trait]
impl SocketSend for PubSocket {
    async fn send(&mut self, message: ZmqMessage) -> ZmqResult<()> {
        if message.get(0).is_none() {
            return Ok(());
        }

        if self.backend.subscriber_count.load(Ordering::Relaxed) == 0 {
            return Ok(());
        }

        self.backend.fanout_message(message).await;
        Ok(())
    }
}

impl CaptureSocket for PubSocket {}

#[async_trait]
impl Socket for PubSocket {
    fn with_options(options: SocketOptions) -> Self {
        let backend = Arc::new(PubSocketBackend {
            subscribers: scc::HashMap::new(),
            subscriber_count: AtomicUsize::new(0),
            socket_monitor: Mutex::new(None),
            socket_options: Arc::new(options),
        });

        Self {
            backend,
            binds: HashMap::new(),
        }
    }

    fn backend(&self) -> Arc<dyn MultiPeerBackend> {
        self.backend.clone()
    }

    fn binds(&mut self) -> &mut HashMap<Endpoint, AcceptStopHandle> {
        &mut self.binds
    }

    fn monitor(&mut self) -> mpsc::Receiver<SocketEvent> {
        let (sender, receiver) = mpsc::channel(1024);
        self.backend.socket_monitor.lock().replace(sender);
        receiver
    }
}
