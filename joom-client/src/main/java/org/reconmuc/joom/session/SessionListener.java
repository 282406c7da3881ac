package org.reconmuc.joom.session;

import java.util.List;
import org.reconmuc.joom.model.ChatMessage;
import org.reconmuc.joom.model.ConnectionState;
import org.reconmuc.joom.model.Mode;

/** What the session reports; called on Smack's and the session's threads, never on the UI's. */
public interface SessionListener {
    /** A groupchat message with a body arrived (live, in the join history, or in a batch). */
    void message(ChatMessage message);

    /** The room's occupants, by nick, sorted: in a big room, those whose presences it sends (the moderators and the user). */
    default void occupants(List<String> nicks) {
    }

    /** The room is big (of {@code occupants}, null when it did not say): everyone is listed on demand, {@link JoomSession#occupantPage}. */
    default void bigRoom(Integer occupants) {
    }

    default void state(ConnectionState state) {
    }

    default void mode(Mode mode) {
    }

    /** A problem in plain words; the session keeps running. */
    default void problem(String plainWords) {
    }
}
