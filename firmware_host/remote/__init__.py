"""Remote play: a game between two nests through an MQTT broker.

- :mod:`~firmware_host.remote.messages`: the wire schema (JSON), read strictly: every
  record in a message is replayed by our own rules before anything in it is believed;
- :mod:`~firmware_host.remote.signing`: the keys drawn from the game's code at pairing
  and every message's HMAC, checked before anything in it is read;
  :mod:`~firmware_host.remote.identity`: the nest's own key, kept on disk;
- :mod:`~firmware_host.remote.session`: the pure state machine of one nest's side of a
  set (pairing, whose move, the copy and its ack, resynchronising from both records,
  a desync shown and never settled silently, the link's state, resign, draw and take
  back by agreement), time passed in;
- :mod:`~firmware_host.remote.broker_client`: the one life of a client of the broker
  (paho-mqtt), for remote play and live boards alike: connected again with the shared
  back-off, subscribed on each connection, a last will, TLS and a user name and password;
- :mod:`~firmware_host.remote.link`: remote play's transport on it: topics, retained
  state, QoS 1, the nest's presence;
- :mod:`~firmware_host.remote.player`: the session and the link put together, what
  the daemon starts to play a side at a distance;
- :mod:`~firmware_host.remote.seat`: the other side seated at the referee as the
  computer is: its move becomes the "move chosen elsewhere", each move accepted here
  goes to the session.

How to set it up, the topics and the schema: ``docs/remote-play.md``.
"""
