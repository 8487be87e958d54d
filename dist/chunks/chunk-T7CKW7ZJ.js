import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{b as i,n as a}from"./chunk-4PYPBIHA.js";import{a as n}from"./chunk-XBPPTJU7.js";var l=5,r=class{static{n(this,"RequestPacer")}#t;#o;#s;#n=0;count=0;constructor(s,t=i,o=a){this.#t=s>0?1e3/s:0,this.#o=t,this.#s=o}async take(s){let t=this.#o(),o=Math.max(t,this.#n);this.#n=o+this.#t,this.count+=1,o>t&&await this.#s(o-t,s)}};export{l as a,r as b};
