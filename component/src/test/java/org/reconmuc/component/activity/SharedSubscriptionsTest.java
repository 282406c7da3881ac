package org.reconmuc.component.activity;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.dom4j.DocumentHelper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reconmuc.component.config.StoreLocation;
import org.reconmuc.component.store.Store;
import org.xmpp.packet.Presence;

/**
 * Three instances share their XEP-0437 subscribers through one store (H2 here; the same table on
 * PostgreSQL: StoreContract): what a presence to the instance holding the service's bucket changes
 * reaches the rooms of the other two at their next refresh, within the service's limit, and a
 * refresh never undoes a subscription taken here and not yet written. Each instance's refresh is
 * called by hand, in turn: no threads.
 */
class SharedSubscriptionsTest {
    private static final String JULIET = "juliet@capulet.lit/balcony";
    private static final String ROMEO = "romeo@montague.lit/orchard";
    private static final String NURSE = "nurse@capulet.lit/kitchen";

    @TempDir
    Path dir;
    private Store store;
    private final List<Instance> instances = new ArrayList<>();

    /** One instance's subscribers, and what its rooms were told. */
    private record Instance(ActivitySubscriptions subscriptions, SharedSubscriptions shared, List<String> rooms) {
        void sync() {
            shared.sync();
        }
    }

    @BeforeEach
    void open() throws Exception {
        store = Store.openFencedWithoutThreads(StoreLocation.parse("h2:" + dir.resolve("rooms")), "a");
        for (String name : List.of("a", "b", "c")) {
            List<String> told = new ArrayList<>();
            ActivitySubscriptions subscriptions = new ActivitySubscriptions(2, change -> told.add(describe(change)));
            instances.add(new Instance(subscriptions,
                    new SharedSubscriptions(subscriptions, store.leases(name), Clock.systemUTC(), null), told));
        }
    }

    @AfterEach
    void close() {
        instances.forEach(i -> i.shared().close());
        store.close();
    }

    private static String describe(ActivitySubscriptions.Change change) {
        return change instanceof ActivitySubscriptions.Subscribed s ? "+" + s.session()
                : change instanceof ActivitySubscriptions.Unsubscribed u ? "-" + u.session() : change.toString();
    }

    private static Presence rai() {
        Presence p = new Presence();
        p.getElement().add(DocumentHelper.createElement(org.dom4j.QName.get(RaiElement.ELEMENT, RaiElement.NAMESPACE)));
        return p;
    }

    private static Presence unavailable() {
        Presence p = new Presence();
        p.setType(Presence.Type.unavailable);
        return p;
    }

    private void syncAll() {
        instances.forEach(Instance::sync);
    }

    @Test
    void aSubscriptionOnTheServicesInstanceReachesTheRoomsOfTheOthersAndEndsThereToo() {
        Instance a = instances.get(0);
        Instance b = instances.get(1);
        Instance c = instances.get(2);
        assertThat(a.subscriptions().presence(JULIET, rai())).isInstanceOf(ActivitySubscriptions.Subscribed.class);
        assertThat(a.rooms()).containsExactly("+" + JULIET);
        assertThat(b.subscriptions().subscribed(JULIET)).as("not before b reads the store").isFalse();
        syncAll();
        assertThat(b.rooms()).containsExactly("+" + JULIET);
        assertThat(c.rooms()).containsExactly("+" + JULIET);
        assertThat(a.rooms()).as("a's own subscription is not adopted again").containsExactly("+" + JULIET);

        // Juliet's server says she went offline; the presence reaches a (the service's bucket).
        a.subscriptions().presence(JULIET, unavailable());
        syncAll();
        assertThat(b.rooms()).containsExactly("+" + JULIET, "-" + JULIET);
        assertThat(c.rooms()).containsExactly("+" + JULIET, "-" + JULIET);
        assertThat(b.subscriptions().size()).isZero();
    }

    @Test
    void theLimitIsTheServicesAfterTheBucketMoved() {
        Instance a = instances.get(0);
        Instance b = instances.get(1);
        a.subscriptions().presence(JULIET, rai());
        a.subscriptions().presence(ROMEO, rai());
        syncAll();
        // The service's bucket moved to b (a hand-over): b knows both, and refuses a third.
        assertThat(b.subscriptions().presence(NURSE, rai())).isInstanceOf(ActivitySubscriptions.Refused.class);
        // A bounce of a notice b sent reaches b: Romeo's place is given back, on a too.
        b.subscriptions().bounced(ROMEO);
        b.sync();
        a.sync();
        assertThat(a.subscriptions().subscribed(ROMEO)).isFalse();
        assertThat(b.subscriptions().presence(NURSE, rai())).isInstanceOf(ActivitySubscriptions.Subscribed.class);
    }

    @Test
    void aRefreshDoesNotUndoASubscriptionNotYetWritten() throws Exception {
        Instance a = instances.get(0);
        Instance b = instances.get(1);
        a.subscriptions().presence(JULIET, rai());
        a.sync();
        // Romeo subscribes on a while b's refresh is due; b's read comes before a's write.
        a.subscriptions().presence(ROMEO, rai());
        b.sync();
        assertThat(a.subscriptions().subscribed(ROMEO)).isTrue();
        assertThat(b.subscriptions().subscribed(ROMEO)).isFalse();
        // Juliet ends hers on a; a refresh on a before its write would see her in the table.
        try (var other = store.leases("x")) {
            assertThat(other.activitySubscribers()).containsExactly(JULIET);
        }
        a.subscriptions().presence(JULIET, unavailable());
        a.sync();
        b.sync();
        assertThat(a.subscriptions().subscribed(ROMEO)).isTrue();
        assertThat(a.subscriptions().subscribed(JULIET)).isFalse();
        assertThat(b.subscriptions().subscribed(ROMEO)).isTrue();
        assertThat(b.subscriptions().subscribed(JULIET)).isFalse();
    }
}
