package org.reconmuc.joom.model;

/**
 * The last account and room, and the bounds Joom asks for; kept in a small file between runs
 * ({@link SettingsStore}). The password is never stored.
 *
 * @param server the XMPP server's host
 * @param port its client port
 * @param jid the account, e.g. {@code alice@example.org} (for anonymous login: the anonymous domain)
 * @param anonymous whether to log in with SASL ANONYMOUS
 * @param room the room's JID
 * @param nick the nick in the room
 * @param timeSeconds the time bound of relaxed mode
 * @param volume the volume bound of relaxed mode
 * @param topic the last active topic
 */
public record Settings(String server, int port, String jid, boolean anonymous, String room, String nick, int timeSeconds,
        int volume, String topic) {

    public static final Settings DEFAULTS = new Settings("127.0.0.1", 5222, "", false, "lobby@reconmuc.localhost", "",
            JoomRequirements.DEFAULT_TIME, JoomRequirements.DEFAULT_VOLUME, "general");

    public Settings withAccount(String server, int port, String jid, boolean anonymous) {
        return new Settings(server, port, jid, anonymous, room, nick, timeSeconds, volume, topic);
    }

    public Settings withRoom(String room, String nick) {
        return new Settings(server, port, jid, anonymous, room, nick, timeSeconds, volume, topic);
    }

    public Settings withBounds(int time, int vol) {
        return new Settings(server, port, jid, anonymous, room, nick, time, vol, topic);
    }

    public Settings withTopic(String activeTopic) {
        return new Settings(server, port, jid, anonymous, room, nick, timeSeconds, volume, activeTopic);
    }

    /** The requirements these settings ask for, with {@code activeTopic}. */
    public JoomRequirements requirements(String activeTopic) {
        return new JoomRequirements(activeTopic, timeSeconds, volume);
    }
}
