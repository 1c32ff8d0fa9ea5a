import './noEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { isTestBuild } from './testing/testBuild';
import { installTestHook } from './testing/testHook';
import './styles.css';

if (isTestBuild) installTestHook();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
