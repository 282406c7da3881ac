package org.reconmuc.component.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.jivesoftware.smack.packet.Message;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.jxmpp.jid.EntityBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.servers.PostgresServer;
import org.reconmuc.servers.SharedStore;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * A server that takes one connection per component domain (Prosody; Openfire without
 * {@code allowMultiple}): a second instance waits as a standby (the server refuses it, it keeps
 * trying), and when the active one is killed it attaches and serves the rooms from the shared
 * PostgreSQL, whose occupants carry on, told nothing. {@link ProsodyStandbyIT}, {@link OpenfireStandbyIT}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StandbyIT {
    private PostgresServer postgres;
    private SharedStore store;
    private XmppServer server;
    private Path dir;
    private ComponentJvm active;
    private ComponentJvm standby;

    abstract String serverKind();

    @BeforeAll
    void start() throws Exception {
        dir = Path.of("target", "it-" + serverKind() + "-standby").toAbsolutePath();
        postgres = PostgresServer.start();
        store = new SharedStore(postgres);
        server = XmppServers.start(serverKind(), Files.createDirectories(dir.resolve(serverKind())));
    }

    @AfterAll
    void stop() throws Exception {
        for (ComponentJvm c : new ComponentJvm[] {active, standby}) {
            if (c != null) {
                c.close();
            }
        }
        if (server != null) {
            server.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    private String[] flags(String instance) {
        return new String[] {"--store", postgres.jdbcUrl(), "--instance", instance, "--lease-seconds", "2",
                "--room-default-persistent", "true", "--lock-new-rooms", "false"};
    }

    @Test
    void theStandbyAttachesWhenTheActiveInstanceDiesAndServesItsRooms() throws Exception {
        active = ComponentJvm.start(server, dir.resolve("active.log"), flags("active"));
        Path standbyLog = dir.resolve("standby.log");
        long standbyFrom = Files.exists(standbyLog) ? Files.size(standbyLog) : 0;
        standby = ComponentJvm.startStandby(server, standbyLog, flags("standby"));
        assertThat(standby.awaitAttached(standbyFrom, 3)).as("the server refuses a second connection").isFalse();

        EntityBareJid room = JidCreate.entityBareFrom("balcony@" + server.componentDomain());
        XMPPTCPConnection romeoC = server.newClient("romeo");
        XMPPTCPConnection julietC = server.newClient("juliet");
        RoomWitness witness = new RoomWitness(julietC);
        MultiUserChat romeo = MultiUserChatManager.getInstanceFor(romeoC).getMultiUserChat(room);
        MultiUserChat juliet = MultiUserChatManager.getInstanceFor(julietC).getMultiUserChat(room);
        romeo.join(Resourcepart.from("Romeo"));
        juliet.join(Resourcepart.from("Juliet"));
        romeo.sendMessage("before");
        witness.awaitMessage(room, "before");

        long killedAt = System.nanoTime();
        active.kill();
        active = null;
        assertThat(standby.awaitAttached(standbyFrom, 20)).as("the standby attaches").isTrue();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline && !String.valueOf(store.roomOwners().get(room.toString())).equals("standby")) {
            romeoC.sendStanza(romeoC.getStanzaFactory().buildMessageStanza().to(room).ofType(Message.Type.groupchat)
                    .setBody("probe").build());
            Thread.sleep(250);
        }
        System.out.printf(getClass().getSimpleName() + ": the room served by the standby %.1f s after the kill%n",
                (System.nanoTime() - killedAt) / 1e9);
        assertThat(store.roomOwners()).containsEntry(room.toString(), "standby");
        romeo.sendMessage("after");
        witness.awaitMessage(room, "after");
        assertThat(witness.toldToRejoin).as("nobody is told to join again").isEmpty();
        assertThat(store.archivedWithBody(room.toString(), "before")).isEqualTo(1);
        assertThat(store.archivedWithBody(room.toString(), "after")).isEqualTo(1);
        romeoC.disconnect();
        julietC.disconnect();
    }
}
