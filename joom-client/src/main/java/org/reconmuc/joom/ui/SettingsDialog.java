package org.reconmuc.joom.ui;

import java.awt.GridBagLayout;
import javax.swing.BorderFactory;
import javax.swing.JButton;
import javax.swing.JDialog;
import javax.swing.JLabel;
import javax.swing.JPanel;
import javax.swing.JSpinner;
import javax.swing.SpinnerNumberModel;
import org.reconmuc.smack.RoomSupport;

/**
 * The bounds of relaxed mode: how long (time) and how many (volume) messages of the other topics
 * may wait in the room before they come, compressed, in one batch. Capped by the room's limits.
 */
final class SettingsDialog extends JDialog {

    SettingsDialog(JoomWindow owner, JoomController controller) {
        super(owner, "Settings", true);
        RoomSupport support = controller.session().support();
        int maxTime = support.supported() ? support.largestTime() : 86_400;
        Integer largestVolume = support.largestVolume();
        int maxVolume = largestVolume == null ? 10_000 : largestVolume;
        JSpinner time = new JSpinner(new SpinnerNumberModel(Math.min(controller.settings().timeSeconds(), maxTime), 1, maxTime, 5));
        JSpinner volume = new JSpinner(new SpinnerNumberModel(Math.min(controller.settings().volume(), maxVolume), 1, maxVolume, 1));
        JPanel form = new JPanel(new GridBagLayout());
        form.setBorder(BorderFactory.createEmptyBorder(12, 12, 6, 12));
        ConnectDialog.add(form, 0, "Other topics wait at most (seconds)", time);
        ConnectDialog.add(form, 1, "… or until this many are waiting", volume);
        JLabel explain = new JLabel("<html><body style='width:320px'>With a ReConMUC room, the active topic, your own "
                + "messages and replies to you come at once; the other topics come together, compressed, when either "
                + "bound is reached, or at once when you switch to them. A plain MUC room sends everything at once."
                + (support.supported() ? " This room allows up to " + maxTime + " s and " + maxVolume + " messages." : "")
                + "</body></html>");
        explain.setBorder(BorderFactory.createEmptyBorder(0, 12, 6, 12));
        JButton ok = new JButton("OK");
        ok.addActionListener(e -> {
            controller.setBounds((Integer) time.getValue(), (Integer) volume.getValue());
            owner.state(controller.state(), controller.mode()); // the status bar names the bounds
            dispose();
        });
        JButton cancel = new JButton("Cancel");
        cancel.addActionListener(e -> dispose());
        ConnectDialog.layOut(this, form, explain, cancel, ok);
    }
}
