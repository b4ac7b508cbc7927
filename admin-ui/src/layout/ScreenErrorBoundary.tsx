import { Component, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';

/** A screen that fails to render sends the user to the server-error page, not a blank shell. */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <Navigate to="/errors/error-500" replace /> : this.props.children;
  }
}
