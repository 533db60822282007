"use client";

import { Button, type ButtonProps } from "@/components/ui";
import { useCanEdit } from "./account-context";

/**
 * A button only owners and members may press: for a viewer it is disabled and its title says why
 * (`viewerTitle`, "Viewers cannot …"), so the reason is on the control rather than in an error after.
 */
export function MemberButton({ viewerTitle, disabled, title, ...props }: ButtonProps & { viewerTitle: string }) {
  const canEdit = useCanEdit();
  return <Button {...props} disabled={!canEdit || disabled} title={canEdit ? title : viewerTitle} />;
}
