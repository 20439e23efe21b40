"""EloDI ratings (FISE rules, section V; ``docs/elodi.md`` of the shared documentation).

``ranking.elodi``: the pure algorithm; the stored ratings and history are tables of the storage
package (``duplicate.storage.rating_models``);
``ranking.ratings``: rating games once, recomputing, the rating list and reports — with its
parts ``ranking.rating_field`` (which games count, their field), ``ranking.rating_history``
(versions, list, reports, history) and ``ranking.rating_views`` (what they return);
``ranking.classic``: classic (head-to-head) events;
``ranking.service``: the tournament service with the EloDI hooks, as the front ends build it.
"""
