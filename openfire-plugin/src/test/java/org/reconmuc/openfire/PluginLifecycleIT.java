package org.reconmuc.openfire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jivesoftware.smack.XMPPException.XMPPErrorException;
import org.jivesoftware.smack.tcp.XMPPTCPConnection;
import org.jivesoftware.smackx.disco.ServiceDiscoveryManager;
import org.jivesoftware.smackx.disco.packet.DiscoverInfo;
import org.jivesoftware.smackx.muc.MultiUserChat;
import org.jivesoftware.smackx.muc.MultiUserChatManager;
import org.junit.jupiter.api.Test;
import org.jxmpp.jid.DomainBareJid;
import org.jxmpp.jid.impl.JidCreate;
import org.jxmpp.jid.parts.Resourcepart;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/**
 * What an admin does with the plugin: drops it into {@code plugins/} (the service appears, with
 * the settings from system properties), removes it (Openfire calls destroyPlugin: the service is
 * unregistered and its address no longer answers), and puts it back (registered again).
 */
class PluginLifecycleIT {
    private static final long WAIT_MS = 30_000;

    @Test
    void theAdminInstallsRemovesAndReinstallsThePlugin() throws Exception {
        Path jar = Path.of(System.getProperty("reconmuc.openfirePlugin"));
        try (XmppServer server = XmppServers.startOpenfireWithPlugin(
                Files.createDirectories(Path.of("target", "it-openfire-plugin-lifecycle")), jar,
                // Openfire looks at plugins/ every 20 s by default.
                Map.of("reconmuc.subdomain", "reconmuc", "plugins.loading.monitor.interval", "1"))) {
            DomainBareJid service = JidCreate.domainBareFrom(server.componentDomain());
            XMPPTCPConnection admin = server.newClient("admin");
            ServiceDiscoveryManager disco = ServiceDiscoveryManager.getInstanceFor(admin);
            DiscoverInfo info = disco.discoverInfo(service);
            assertThat(info.hasIdentity("conference", "text")).isTrue();
            assertThat(disco.discoverItems(JidCreate.domainBareFrom("localhost")).getItems())
                    .as("Openfire lists the registered component").extracting(i -> i.getEntityID().toString())
                    .contains(server.componentDomain());
            MultiUserChat room = MultiUserChatManager.getInstanceFor(admin)
                    .getMultiUserChat(JidCreate.entityBareFrom("lobby@" + service));
            room.createOrJoin(Resourcepart.from("Admin")).makeInstant();

            Path installed = server.runDir().resolve("openfire/plugins").resolve(jar.getFileName());
            Files.delete(installed);
            awaitTrue(() -> !answers(disco, service));
            assertThat(server.logTail(400)).contains("ReConMUC shut down");

            Files.copy(jar, installed, StandardCopyOption.REPLACE_EXISTING);
            awaitTrue(() -> answers(disco, service));
        }
    }

    private static boolean answers(ServiceDiscoveryManager disco, DomainBareJid service) {
        try {
            return disco.discoverInfo(service).hasIdentity("conference", "text");
        } catch (XMPPErrorException e) {
            return false;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private static void awaitTrue(Check check) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!check.ok()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT_MS + " ms");
            }
            Thread.sleep(250);
        }
    }
}
