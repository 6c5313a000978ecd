import type { NodeTypes } from '@xyflow/react';
import { AgentNode } from './AgentNode.tsx';

// At module scope: a new object on each render would make React Flow remount every node.
export const nodeTypes: NodeTypes = { agent: AgentNode };
