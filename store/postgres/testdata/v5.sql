
SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

CREATE TABLE channel_tables (
    channel text NOT NULL,
    guild text NOT NULL,
    data bytea NOT NULL,
    version bigint NOT NULL,
    updated_at timestamp with time zone NOT NULL
);

CREATE TABLE clock_deadlines (
    channel text NOT NULL,
    due_at timestamp with time zone NOT NULL
);

CREATE TABLE handled_interactions (
    id text NOT NULL,
    handled_at timestamp with time zone NOT NULL
);

CREATE TABLE ratings (
    scope text NOT NULL,
    kind text NOT NULL,
    player text NOT NULL,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    games integer NOT NULL
);

CREATE TABLE result_players (
    result_id bigint NOT NULL,
    scope text NOT NULL,
    player text NOT NULL,
    seat integer NOT NULL,
    outcome text NOT NULL,
    finish text DEFAULT ''::text NOT NULL,
    place integer DEFAULT 0 NOT NULL,
    CONSTRAINT result_players_outcome_check CHECK ((outcome = ANY (ARRAY['win'::text, 'loss'::text, 'draw'::text])))
);

CREATE TABLE results (
    id bigint NOT NULL,
    scope text NOT NULL,
    rows_n integer NOT NULL,
    cols_n integer NOT NULL,
    win_n integer NOT NULL,
    gravity boolean NOT NULL,
    moves integer NOT NULL,
    finished_at timestamp with time zone NOT NULL,
    channel text DEFAULT ''::text NOT NULL,
    kind text DEFAULT 'other'::text NOT NULL,
    tokens text DEFAULT ''::text NOT NULL,
    record text DEFAULT ''::text NOT NULL,
    reason text DEFAULT ''::text NOT NULL
);

CREATE SEQUENCE results_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE results_id_seq OWNED BY results.id;

CREATE TABLE schema_migrations (
    version integer NOT NULL,
    name text NOT NULL
);

CREATE TABLE store_probe (
    id integer NOT NULL,
    probes bigint NOT NULL
);

ALTER TABLE ONLY results ALTER COLUMN id SET DEFAULT nextval('results_id_seq'::regclass);

INSERT INTO channel_tables VALUES ('200000000000000001', 'g', '\x7b226775696c64223a2267222c226368616e6e656c223a22323030303030303030303030303030303031222c2263726561746f72223a22313030303030303030303030303030303031222c2272756c6573223a7b22526f7773223a332c22436f6c73223a332c2257696e223a332c2247726176697479223a66616c73652c22506c6179657273223a327d2c22656e67696e65223a302c227365617473223a5b7b2275736572223a22313030303030303030303030303030303031222c22746f6b656e223a2258227d2c7b2275736572223a22313030303030303030303030303030303032222c22746f6b656e223a224f227d5d2c227068617365223a226f766572222c226d6f766573223a22302e302e3020312e312e3020302e302e3120312e312e3120302e302e32222c226e756d626572223a312c2263726561746564223a22323032362d31312d32325431323a30303a30305a222c2275706461746564223a22323032362d31312d32325431323a30303a30355a227d', 6, '2026-11-22 12:00:05+00');
INSERT INTO channel_tables VALUES ('200000000000000002', 'g', '\x7b226775696c64223a2267222c226368616e6e656c223a22323030303030303030303030303030303032222c2263726561746f72223a22313030303030303030303030303030303031222c2272756c6573223a7b22526f7773223a332c22436f6c73223a332c2257696e223a332c2247726176697479223a66616c73652c22506c6179657273223a327d2c22656e67696e65223a302c227365617473223a5b7b2275736572223a22313030303030303030303030303030303031222c22746f6b656e223a2258227d2c7b2275736572223a22313030303030303030303030303030303032222c22746f6b656e223a224f227d5d2c227068617365223a22706c6179696e67222c226d6f766573223a22302e312e31222c226e756d626572223a312c2263726561746564223a22323032362d31312d32325431323a30303a30355a222c2275706461746564223a22323032362d31312d32325431323a30303a30365a222c22636c6f636b223a33302c22646561646c696e65223a22323032362d31312d32325431323a30303a33365a222c22636c6f636b5f6174223a317d', 2, '2026-11-22 12:00:06+00');

INSERT INTO clock_deadlines VALUES ('200000000000000002', '2026-11-22 12:00:36+00');

INSERT INTO handled_interactions VALUES ('1574031694233600000', '2026-11-22 12:00:01+00');
INSERT INTO handled_interactions VALUES ('1574031694233600100', '2026-11-22 12:00:02+00');
INSERT INTO handled_interactions VALUES ('1574031694233600200', '2026-11-22 12:00:03+00');
INSERT INTO handled_interactions VALUES ('1574031694233600300', '2026-11-22 12:00:04+00');
INSERT INTO handled_interactions VALUES ('1574031694233600400', '2026-11-22 12:00:05+00');
INSERT INTO handled_interactions VALUES ('1574031694233601000', '2026-11-22 12:00:06+00');

INSERT INTO ratings VALUES ('*', 'classic', '100000000000000001', 27.635389493140497, 8.06590141354368, 1);
INSERT INTO ratings VALUES ('*', 'classic', '100000000000000002', 22.364610506859503, 8.06590141354368, 1);
INSERT INTO ratings VALUES ('g', 'classic', '100000000000000001', 27.635389493140497, 8.06590141354368, 1);
INSERT INTO ratings VALUES ('g', 'classic', '100000000000000002', 22.364610506859503, 8.06590141354368, 1);

INSERT INTO result_players VALUES (1, 'g', '100000000000000001', 0, 'win', 'won', 0);
INSERT INTO result_players VALUES (1, 'g', '100000000000000002', 1, 'loss', 'lost', 1);

INSERT INTO results VALUES (1, 'g', 3, 3, 3, false, 5, '2026-11-22 12:00:05+00', '200000000000000001', 'classic', 'X O', '0.0.0 1.1.0 0.0.1 1.1.1 0.0.2', '');

INSERT INTO schema_migrations VALUES (1, '0001_tables_and_results.sql');
INSERT INTO schema_migrations VALUES (2, '0002_handled_interactions.sql');
INSERT INTO schema_migrations VALUES (3, '0003_ratings_and_history.sql');
INSERT INTO schema_migrations VALUES (4, '0004_clock_deadlines.sql');
INSERT INTO schema_migrations VALUES (5, '0005_prune_handled_by_id.sql');

SELECT pg_catalog.setval('results_id_seq', 1, true);

ALTER TABLE ONLY channel_tables
    ADD CONSTRAINT channel_tables_pkey PRIMARY KEY (channel);

ALTER TABLE ONLY clock_deadlines
    ADD CONSTRAINT clock_deadlines_pkey PRIMARY KEY (channel);

ALTER TABLE ONLY handled_interactions
    ADD CONSTRAINT handled_interactions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY ratings
    ADD CONSTRAINT ratings_pkey PRIMARY KEY (scope, kind, player);

ALTER TABLE ONLY result_players
    ADD CONSTRAINT result_players_pkey PRIMARY KEY (result_id, seat);

ALTER TABLE ONLY results
    ADD CONSTRAINT results_pkey PRIMARY KEY (id);

ALTER TABLE ONLY schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);

ALTER TABLE ONLY store_probe
    ADD CONSTRAINT store_probe_pkey PRIMARY KEY (id);

CREATE INDEX clock_deadlines_by_due ON clock_deadlines USING btree (due_at);

CREATE INDEX result_players_by_player ON result_players USING btree (scope, player);

CREATE INDEX result_players_history ON result_players USING btree (player, result_id);

CREATE INDEX results_by_channel ON results USING btree (channel, id);

ALTER TABLE ONLY clock_deadlines
    ADD CONSTRAINT clock_deadlines_channel_fkey FOREIGN KEY (channel) REFERENCES channel_tables(channel);

ALTER TABLE ONLY result_players
    ADD CONSTRAINT result_players_result_id_fkey FOREIGN KEY (result_id) REFERENCES results(id);

