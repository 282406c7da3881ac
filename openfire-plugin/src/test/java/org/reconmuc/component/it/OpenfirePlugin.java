package org.reconmuc.component.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.reconmuc.component.config.ServiceConfig;
import org.reconmuc.openfire.PluginProperties;
import org.reconmuc.servers.XmppServer;
import org.reconmuc.servers.XmppServers;

/** A fresh Openfire with the plugin jar this module built in {@code plugins/}, configured like the component. */
final class OpenfirePlugin {
    private OpenfirePlugin() {
    }

    static LiveService start(String runDir, UnaryOperator<ServiceConfig> adjust) throws Exception {
        String jar = System.getProperty("reconmuc.openfirePlugin");
        if (jar == null || jar.isBlank()) {
            throw new IllegalStateException("-Dreconmuc.openfirePlugin=<plugin jar> is not set (Failsafe sets it)");
        }
        ServiceConfig config = adjust.apply(ServiceConfig.defaults());
        XmppServer server = XmppServers.startOpenfireWithPlugin(Files.createDirectories(Path.of("target", runDir)),
                Path.of(jar), PluginProperties.of(config));
        return LiveService.inProcess(server);
    }
}
