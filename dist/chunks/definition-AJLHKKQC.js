import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-VHMF47PM.js";import"./chunk-WZADPM4R.js";import"./chunk-563GI2N3.js";import"./chunk-PCXE5LLD.js";import"./chunk-SKUA5T56.js";import"./chunk-AGOBB62V.js";import"./chunk-XTI5FTON.js";import"./chunk-XBPPTJU7.js";export{a as action};
